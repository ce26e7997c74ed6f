package intl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

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
	match, refused := 0, 0
	var differ []string
	for _, c := range cases {
		got := eval(vm, c[0])
		switch {
		case got == c[1]:
			match++
		case strings.Contains(got, "is not supported by beeuni's Intl"):
			refused++
			t.Logf("refused: %s: %s", c[0], got)
		default:
			differ = append(differ, c[0]+"\n   got: "+got+"\n  want: "+c[1])
		}
	}
	t.Logf("%d expressions: %d match, %d differ, %d refused", len(cases), match, len(differ), refused)
	for _, d := range differ {
		t.Error(d)
	}
}
