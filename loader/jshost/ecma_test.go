package jshost

import (
	"os"
	"strings"
	"testing"
)

// jsonStringifyProbe builds every form of JSON.stringify's space argument
// over values with empty arrays and objects; testdata/json_stringify.node.json
// is what Node 20 printed for it (node, the same body, console.log).
const jsonStringifyProbe = `execute() {
const v = { a: { empty: [], next: { x: 1 } }, none: {}, after: { y: [1, {}, [], [[]]] }, s: "é\u2028<>&", n: null, u: undefined }
const cases = [
  JSON.stringify(v, null, 2), JSON.stringify(v, null, '\t'), JSON.stringify(v, null, '--'), JSON.stringify(v, null, 20),
  JSON.stringify(v, null, 0), JSON.stringify(v, null, ''), JSON.stringify(v, null, 'abcdefghijkl'), JSON.stringify(v, ['a', 'next', 'x'], 1),
  JSON.stringify(v, (k, x) => (k === 'n' ? 'N' : x), new Number(3)), JSON.stringify(v, null, new String('..')), String(JSON.stringify(undefined, null, 2)),
  JSON.stringify([], null, 2), JSON.stringify({}, null, 2), JSON.stringify('x', null, 2), JSON.stringify({ toJSON() { return { k: [] } } }, null, 2),
  JSON.stringify.name + JSON.stringify.length,
]
return JSON.stringify(cases)

}`

// TestJSONStringifyAsNode: JSON.stringify indents as the standard says
// (goja indents what follows an empty [] or {} one level too deep), and
// so does the host's formatting of a returned object.
func TestJSONStringifyAsNode(t *testing.T) {
	want, err := os.ReadFile("testdata/json_stringify.node.json")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/probe.ts":  tool(jsonStringifyProbe),
		"tools/object.ts": tool("execute() { return { a: { empty: [], next: { x: 1 } }, b: {} } }"),
	}), Options{}, "tools/probe.ts", "tools/object.ts")
	mustLoad(t, s)
	if r := call(t, s, "probe", "{}"); r.IsError || r.Output != strings.TrimSpace(string(want)) {
		t.Errorf("JSON.stringify:\n got %s\nwant %s", r.Output, want)
	}
	const obj = "{\n  \"a\": {\n    \"empty\": [],\n    \"next\": {\n      \"x\": 1\n    }\n  },\n  \"b\": {}\n}"
	if r := call(t, s, "object", "{}"); r.IsError || r.Output != obj {
		t.Errorf("a returned object:\n%s\nwant\n%s", r.Output, obj)
	}
}

// TestJSONParseAsNode: JSON.parse answers what Node 20 answers, values and
// SyntaxErrors alike (testdata/json_parse.probe.js says how the expected
// file was made).
func TestJSONParseAsNode(t *testing.T) {
	probe, err := os.ReadFile("testdata/json_parse.probe.js")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/json_parse.node.json")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/probe.ts": tool("execute() {\n" + string(probe) + "\n}"),
	}), Options{}, "tools/probe.ts")
	mustLoad(t, s)
	r := call(t, s, "probe", "{}")
	if r.IsError {
		t.Fatal(r.Output)
	}
	got, wantLines := strings.Split(r.Output, "\n"), strings.Split(strings.TrimSpace(string(want)), "\n")
	for i := range max(len(got), len(wantLines)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
}
