package ecma

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indent must print what encoding/json's Indent prints for every compact
// JSON text, the layout the standard's algorithm gives.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `"x"`, `1`, `null`, `{"a":[]}`, `[{},[],{"b":{}}]`,
		`{"a\"b":"c\\\\","d":[1,-2.5e+30,true,false,null]}`,
		`{"s":"{[,:]}","e":{"f":[{"g":"\u2028"}]}}`,
		`[[[[1]]],{"":""}]`,
	} {
		f.Add(s, "  ")
		f.Add(s, "\t")
	}
	f.Fuzz(func(t *testing.T, text, gap string) {
		var c bytes.Buffer
		if json.Compact(&c, []byte(text)) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, c.Bytes(), "", gap); err != nil {
			t.Fatal(err)
		}
		if got := string(appendIndent(nil, c.String(), gap, 0)); got != want.String() {
			t.Fatalf("indent(%q, %q) =\n%s\nwant\n%s", c.String(), gap, got, want.String())
		}
	})
}
