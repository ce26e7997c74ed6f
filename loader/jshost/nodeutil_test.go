package jshost

import "testing"

// util as Node 20 has it (wants printed by Node).
func TestNodeUtil(t *testing.T) {
	checkLikeNode(t, "import util from 'node:util'", []nodeCase{
		{`(() => { const r = util.parseArgs({ args: ['--name', 'Ada', '-v', '--count=3', 'file.txt', '--', '--raw'], allowPositionals: true, options: { name: { type: 'string' }, verbose: { type: 'boolean', short: 'v' }, count: { type: 'string', default: '1' } } }); return [{ ...r.values }, r.positionals] })()`, `[{"name":"Ada","verbose":true,"count":"3"},["file.txt","--raw"]]`},
		{`(() => { try { util.parseArgs({ args: ['--bogus'], options: {} }); return 'ok' } catch (e) { return [e.name, e.code, e.message] } })()`, `["TypeError","ERR_PARSE_ARGS_UNKNOWN_OPTION","Unknown option '--bogus'"]`},
		{`(() => { try { util.parseArgs({ args: ['--bogus'], options: {}, allowPositionals: true }); return 'ok' } catch (e) { return [e.code, e.message] } })()`, `["ERR_PARSE_ARGS_UNKNOWN_OPTION","Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--bogus\""]`},
		{`(() => { try { util.parseArgs({ args: ['x'], options: {} }); return 'ok' } catch (e) { return [e.code, e.message] } })()`, `["ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL","Unexpected argument 'x'. This command does not take positional arguments"]`},
		{`(() => { try { util.parseArgs({ args: ['-f'], options: { file: { type: 'string', short: 'f' } } }); return 'ok' } catch (e) { return [e.code, e.message] } })()`, `["ERR_PARSE_ARGS_INVALID_OPTION_VALUE","Option '-f, --file <value>' argument missing"]`},
		{`(() => { try { util.parseArgs({ args: ['--v=1'], options: { v: { type: 'boolean' } } }); return 'ok' } catch (e) { return [e.code, e.message] } })()`, `["ERR_PARSE_ARGS_INVALID_OPTION_VALUE","Option '--v' does not take an argument"]`},
		{`(() => { const r = util.parseArgs({ args: ['-abfFILE', '-c', 'x', '--multi', '1', '--multi=2', '-fz'], strict: false, tokens: true, options: { file: { type: 'string', short: 'f' }, multi: { type: 'string', multiple: true } } }); return [{ ...r.values }, r.positionals, r.tokens] })()`, `[{"a":true,"b":true,"file":"z","c":true,"multi":["1","2"]},["x"],[{"kind":"option","name":"a","rawName":"-a","index":0},{"kind":"option","name":"b","rawName":"-b","index":0},{"kind":"option","name":"file","rawName":"-f","index":0,"value":"FILE","inlineValue":true},{"kind":"option","name":"c","rawName":"-c","index":1},{"kind":"positional","index":2,"value":"x"},{"kind":"option","name":"multi","rawName":"--multi","index":3,"value":"1","inlineValue":false},{"kind":"option","name":"multi","rawName":"--multi","index":5,"value":"2","inlineValue":true},{"kind":"option","name":"file","rawName":"-f","index":6,"value":"z","inlineValue":true}]]`},
		{`(() => { const r = util.parseArgs({ args: ['a', '-x'], strict: false }); return [{ ...r.values }, r.positionals] })()`, `[{"x":true},["a"]]`},
		{`(() => { const r = util.parseArgs({ args: [], options: { list: { type: 'string', multiple: true, default: ['q'] } } }); return { ...r.values } })()`, `{"list":["q"]}`},
		{`(() => { try { util.parseArgs({ args: [], options: { a: { type: 'number' } } }); return 'ok' } catch (e) { return e.code } })()`, `"ERR_INVALID_ARG_TYPE"`},
		{`Object.getPrototypeOf(util.parseArgs({ args: [] }).values) === null`, `true`},
		{`util.stripVTControlCharacters('\u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007')`, `"red link"`},
		{`[util.types.isAsyncFunction(async () => {}), util.types.isAsyncFunction(() => {}), util.types.isGeneratorFunction(function* () {})]`, `[true,false,true]`},
	})
}
