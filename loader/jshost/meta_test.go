package jshost

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/bundle"
)

var shippedFiles = map[string]string{
	"tools/good.ts": `export default {
  description: 'as the module says',
  parameters: { type: 'object', properties: { n: { type: 'number' } } },
  execute: (a: { n: number }) => 'got ' + a.n,
}
`,
	"tools/env.ts": `if (!process.env.ONLY_ON_THE_CONTROLLER) throw new Error('needs ONLY_ON_THE_CONTROLLER')
export default { description: 'env', parameters: { type: 'object', properties: {} }, execute: () => 'never' }
`,
	"tools/noexec.ts": `export default { description: 'no execute', parameters: { type: 'object', properties: {} } }
`,
}

// TestShippedMeta: a module whose description came with its bundle (a
// release's pack) loads without being evaluated: its tool is the
// shipped description and no runtime is made at load. The first call
// evaluates it; a module that fails here then answers an error naming
// the tool and why, and no runtime is kept. A shipped description that
// does not check out is not used: the module is evaluated as without one.
func TestShippedMeta(t *testing.T) {
	root := project(t, shippedFiles)
	b := bundle.New(nil)
	shipped := `{"description":"as the release says","parameters":{"type":"object","properties":{"n":{"type":"number"}}},"timeout_ms":1500,"concurrent":false,"max_result_chars":99}`
	metas := map[string][]byte{
		"tools/good.ts":   []byte(shipped),
		"tools/env.ts":    []byte(`{"description":"env","parameters":{"type":"object","properties":{}},"concurrent":true}`),
		"tools/noexec.ts": []byte(`{"description":"no execute","parameters":{"type":"object"},"concurrent":true}`),
	}
	if _, err := Offering(b).Pack(root, []string{"tools/good.ts", "tools/env.ts", "tools/noexec.ts"}, metas); err != nil {
		t.Fatal(err)
	}
	s, logs := loadTools(t, root, Options{Bundler: b}, "tools/good.ts", "tools/env.ts", "tools/noexec.ts")
	mustLoad(t, s)
	good, _ := s.Tool("good")
	if good.Description != "as the release says" || good.Timeout.Milliseconds() != 1500 || good.Concurrent || good.MaxResultChars != 99 {
		t.Errorf("good = %+v, want the shipped description", good)
	}
	for name, p := range s.pools {
		if len(p.idle) != 0 {
			t.Errorf("%s: %d runtimes made at load, want none", name, len(p.idle))
		}
	}
	if r := call(t, s, "good", `{"n":2}`); r.IsError || r.Output != "got 2" {
		t.Errorf("good = %+v", r)
	}
	for name, want := range map[string]string{"env": "needs ONLY_ON_THE_CONTROLLER", "noexec": "execute must be a function"} {
		for range 2 {
			r := call(t, s, name, `{}`)
			if !r.IsError || !strings.Contains(r.Output, "tool "+name+" does not load on this executor") || !strings.Contains(r.Output, want) {
				t.Errorf("%s = %+v, want an error naming the tool and %q", name, r, want)
			}
		}
		if n := len(s.pools[name].idle); n != 0 {
			t.Errorf("%s kept %d runtimes", name, n)
		}
		if c := strings.Count(logs.String(), `"tool":"`+name+`"`); c != 1 {
			t.Errorf("%s logged %d times, want once:\n%s", name, c, logs)
		}
	}

	// Descriptions that do not check out: the modules are evaluated here.
	for _, bad := range []string{`{"description":"","parameters":{"type":"object"}}`, `{"description":"x","parameters":{"type":"string"}}`,
		`{"description":"x","parameters":{"type":"object"},"timeout_ms":-1}`, `{"description":"x","parameters":{"type":"object"},"extra":1}`} {
		root := project(t, shippedFiles)
		b := bundle.New(nil)
		if _, err := Offering(b).Pack(root, []string{"tools/good.ts"}, map[string][]byte{"tools/good.ts": []byte(bad)}); err != nil {
			t.Fatal(err)
		}
		s, logs := loadTools(t, root, Options{Bundler: b}, "tools/good.ts")
		mustLoad(t, s)
		if good, _ := s.Tool("good"); good.Description != "as the module says" || !strings.Contains(logs.String(), "is not used") {
			t.Errorf("shipped %s: tool %+v, logs %s", bad, good, logs)
		}
	}
}

// TestSetMeta: what a load tells of a module is what a pack ships.
func TestSetMeta(t *testing.T) {
	root := project(t, shippedFiles)
	s, _ := loadTools(t, root, Options{}, "tools/good.ts")
	m, ok := s.Meta("good")
	if !ok || m.Description != "as the module says" || !m.Concurrent || m.TimeoutMS != 0 || !strings.Contains(string(m.Parameters), `"n"`) {
		t.Errorf("Meta = %+v, %v", m, ok)
	}
	if _, ok := s.Meta("none"); ok {
		t.Error("Meta of no tool")
	}
}
