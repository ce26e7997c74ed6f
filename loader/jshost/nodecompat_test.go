package jshost

import (
	"encoding/json"
	"strings"
	"testing"
)

// nodeCase is a JS expression and Node 20's JSON.stringify of its value
// (or "throws <name>").
type nodeCase struct{ expr, want string }

// checkLikeNode evaluates every case in one async tool (each may be
// awaited) and compares with what Node printed.
// prelude is the tool's imports.
func checkLikeNode(t *testing.T, prelude string, cases []nodeCase) {
	t.Helper()
	var b strings.Builder
	b.WriteString(prelude + "\nexport default { description: 'eval', parameters: { type: 'object' }, async execute() {\n  const out: string[] = []\n")
	for _, c := range cases {
		b.WriteString("  try { out.push(JSON.stringify(await (" + c.expr + "))) } catch (e: any) { out.push('throws ' + e.name) }\n")
	}
	b.WriteString("  return out\n} }\n")
	root := project(t, map[string]string{"tools/eval.ts": b.String()})
	s, _ := loadTools(t, root, Options{}, "tools/eval.ts")
	mustLoad(t, s)
	r := call(t, s, "eval", "{}")
	var got []*string
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil || r.IsError || len(got) != len(cases) {
		t.Fatalf("eval = %+v (%v)", r, err)
	}
	for i, c := range cases {
		g := "undefined"
		if got[i] != nil {
			g = *got[i]
		}
		if g != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.expr, g, c.want)
		}
	}
}
