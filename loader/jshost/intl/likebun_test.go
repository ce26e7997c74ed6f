package intl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// knownDiffer are the answers that still differ from Bun's, and why.
var knownDiffer = map[string]string{
	`new Intl.NumberFormat("en-150", {"style":"currency","currency":"EUR"}).format(-9876543.21)`: "en-150 writes EUR with a pattern of its own (-€9,876,543.21); gen.js records one currency pattern a locale",
}

// TestLikeBun evaluates the expressions of testdata/likebun.json (made
// by testdata/likebun.js under Bun) and compares with Bun's answers. A
// refusal (an error naming what is not supported) is counted apart: it
// is not a wrong answer.
func TestLikeBun(t *testing.T) {
	t.Setenv("TZ", "UTC")
	raw, err := os.ReadFile("testdata/likebun.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]string
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	vm := newVM(t)
	match, refused, known := 0, 0, 0
	var differ []string
	for _, c := range cases {
		got := eval(vm, c[0])
		switch {
		case got == c[1]:
			match++
		case knownDiffer[c[0]] != "":
			known++
			t.Logf("known difference: %s: %s (got %s, Bun %s)", c[0], knownDiffer[c[0]], got, c[1])
		case strings.Contains(got, "is not supported by beeuni's Intl"):
			refused++
			t.Logf("refused: %s: %s", c[0], got)
		default:
			differ = append(differ, c[0]+"\n   got: "+got+"\n  want: "+c[1])
		}
	}
	t.Logf("%d expressions: %d match, %d differ (%d of them known), %d refused", len(cases), match, len(differ)+known, known, refused)
	for _, d := range differ {
		t.Error(d)
	}
}
