package jshost

import "testing"

// TestRegExpLiterals: literals goja would compile wrongly reach the
// host's RegExp through the bundler and the host's compile, in a module
// as tools write them; the answers are Node 20's for the same body.
func TestRegExpLiterals(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/probe.ts": tool(`execute() {
const strip = /[^\p{L}\d]+/giu
const pairs = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g
const words = (s: string) => s.replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2').replace(strip, ' ').trim().split(' ')
return JSON.stringify([
  words('lookupOrder by ID v2'), 'a𝌆b😀'.match(pairs), /(?<w>b+)/d.exec('abbc').indices.groups.w,
  /[\p{L}--[a-z]]/v.test('É'), String(strip), strip instanceof RegExp,
])
}`),
	}), Options{}, "tools/probe.ts")
	mustLoad(t, s)
	const want = `[["lookup","Order","by","ID","v2"],["𝌆","😀"],[1,3],true,"/[^\\p{L}\\d]+/giu",true]`
	if r := call(t, s, "probe", "{}"); r.IsError || r.Output != want {
		t.Errorf("got  %s\nwant %s", r.Output, want)
	}
}
