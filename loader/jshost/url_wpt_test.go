package jshost

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wptTool runs the web-platform-tests URL cases given as args: each
// parse case through new URL and URL.canParse, each setter case through
// the setter. It answers what differs (the host truncates long outputs).
const wptTool = `
const fields = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']
export default {
  description: 'wpt', parameters: { type: 'object' },
  execute(args: any) {
    const bad: string[] = []
    const show = (v: unknown) => JSON.stringify(v)
    for (const c of args.parse) {
      const what = 'new URL(' + show(c.input) + (c.base == null ? '' : ', ' + show(c.base)) + ')'
      let u: any
      try { u = c.base == null ? new URL(c.input) : new URL(c.input, c.base) } catch (e: any) {
        if (!c.failure || e.code !== 'ERR_INVALID_URL') bad.push(what + ' threw ' + e)
        continue
      }
      if (c.failure) { bad.push(what + ' = ' + u.href + ', want a failure'); continue }
      for (const f of fields) if (c[f] !== undefined && u[f] !== c[f]) bad.push(what + '.' + f + ' = ' + show(u[f]) + ', want ' + show(c[f]))
      if (!(c.base == null ? URL.canParse(c.input) : URL.canParse(c.input, c.base))) bad.push('URL.canParse of ' + what + ' is false')
    }
    for (const c of args.set) {
      const u: any = new URL(c.href)
      u[c.setter] = c.new_value
      for (const f of Object.keys(c.expected)) if (u[f] !== c.expected[f]) bad.push('url = ' + show(c.href) + '; url.' + c.setter + ' = ' + show(c.new_value) + ': ' + f + ' = ' + show(u[f]) + ', want ' + show(c.expected[f]))
    }
    return JSON.stringify(bad.slice(0, 30).concat(bad.length > 30 ? [(bad.length - 30) + ' more'] : []))
  },
}`

// TestURLWebPlatformTests runs the WPT URL data the parser module ships
// (urltestdata.json, setters_tests.json) through the JS URL class.
func TestURLWebPlatformTests(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/nlnwa/whatwg-url").Output()
	if err != nil {
		t.Skipf("the whatwg-url module's directory: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "testdata")
	var raw []json.RawMessage
	readJSON(t, filepath.Join(dir, "urltestdata.json"), &raw)
	var parses []json.RawMessage
	for _, m := range raw {
		if m[0] == '{' { // the rest are comments
			parses = append(parses, m)
		}
	}
	var setters map[string]json.RawMessage
	readJSON(t, filepath.Join(dir, "setters_tests.json"), &setters)
	delete(setters, "comment")
	var sets []json.RawMessage
	for name, m := range setters {
		var cs []map[string]any
		if err := json.Unmarshal(m, &cs); err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			c["setter"] = name
			b, _ := json.Marshal(c)
			sets = append(sets, b)
		}
	}
	args, _ := json.Marshal(map[string]any{"parse": parses, "set": sets})

	root := project(t, map[string]string{"tools/wpt.ts": wptTool})
	s, _ := loadTools(t, root, Options{}, "tools/wpt.ts")
	mustLoad(t, s)
	r := call(t, s, "wpt", string(args))
	if r.IsError {
		t.Fatalf("wpt = %.500s", r.Output)
	}
	var bad []string
	if err := json.Unmarshal([]byte(r.Output), &bad); err != nil {
		t.Fatalf("output %.300s: %v", r.Output, err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if len(parses) < 500 || len(sets) < 100 {
		t.Errorf("%d parse and %d setter cases: the data files are not what they were", len(parses), len(sets))
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
