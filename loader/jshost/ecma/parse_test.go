package ecma

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// parseBoth parses text with the parser and with goja's JSON.parse and
// answers each as JSON.stringify of the value, or "throws". Known
// differences are not compared: error messages (V8's here, TestJSONParseAsNode
// checks them) and lone surrogates (goja makes them U+FFFD).
func parseBoth(tb testing.TB, text string) (got, want string) {
	tb.Helper()
	vm := goja.New()
	j := vm.Get("JSON").ToObject(vm)
	orig, _ := goja.AssertFunction(j.Get("parse"))
	stringify, _ := goja.AssertFunction(j.Get("stringify"))
	show := func(v goja.Value) string {
		s, err := stringify(goja.Undefined(), v)
		if err != nil {
			tb.Fatalf("%q: stringify: %v", text, err)
		}
		return s.String()
	}
	want = "throws"
	if v, err := orig(goja.Undefined(), vm.ToValue(text)); err == nil {
		want = show(v)
	}
	got = "throws"
	if v, e := newParser(vm).Parse(text); e == nil {
		got = show(v)
	} else if !isSyntaxError(vm, e) {
		tb.Errorf("%q: threw %v, want a SyntaxError", text, e)
	}
	return got, want
}

func isSyntaxError(vm *goja.Runtime, e goja.Value) bool {
	o, ok := e.(*goja.Object)
	return ok && o.Get("constructor") == vm.Get("SyntaxError")
}

// surrogateEscape is a \u escape of a surrogate: goja's parse and this one
// differ on lone ones by design.
var surrogateEscape = regexp.MustCompile(`(?i)\\u d[89a-f]`)

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2.5,-0,"x\n\u00e9"],"b":{"c":null,"d":true}}`, `"\ud83d\ude00"`,
		`1e400`, `-`, `01`, `[1,]`, `{"a" 1}`, ` [ ] `, `"é"`, `{"__proto__":1}`, `{"a":1,"a":2}`, `123456789012345678`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if surrogateEscape.MatchString(strings.ReplaceAll(text, `\u`, `\u `)) {
			return
		}
		got, want := parseBoth(t, text)
		if valid := json.Valid([]byte(text)); valid != (got != "throws") {
			t.Fatalf("%q: json.Valid %v, parse %s", text, valid, got)
		}
		if want != "throws" && got != want {
			t.Fatalf("%q:\n got %s\nwant %s (goja)", text, got, want)
		}
	})
}

// TestParseLikeGoja: values as goja's builtin makes them, for texts of
// every kind; the fuzz seeds run here too.
func TestParseLikeGoja(t *testing.T) {
	for _, text := range []string{
		`{"id":1,"sku":"SKU-1000","name":"Catalog item","price":1.37,"tags":["bench","odd"],"stock":true}`,
		`[[[[[]]]]]`, `{"a":{"b":{"c":{}}}}`, `[0,-0,1e-7,1.7976931348623157e308,5e-324,-9007199254740991]`,
		`"\"\\\/\b\f\n\r\t\u0000\u001f"`, `"中文 ελληνικά"`, `{"中":"文"}`, `{"k\u00e9y":1}`,
		"\"\xed\xa0\x80 \xff\"", "{\"\xed\xbf\":1}",
	} {
		if got, want := parseBoth(t, text); got != want {
			t.Errorf("%s:\n got %s\nwant %s", text, got, want)
		}
	}
}

// TestParseDeep: nesting past the parser's bound is a RangeError, not a
// stack overflow (the limits platform refuses such text before, with the
// executor's argument check).
func TestParseDeep(t *testing.T) {
	vm := goja.New()
	text := strings.Repeat("[", maxParseDepth+1) + strings.Repeat("]", maxParseDepth+1)
	_, e := newParser(vm).Parse(text)
	o, ok := e.(*goja.Object)
	if !ok || o.Get("constructor") != vm.Get("RangeError") {
		t.Fatalf("got %v, want a RangeError", e)
	}
	if v, e := newParser(vm).Parse(text[1 : len(text)-1]); e != nil || v == nil {
		t.Fatalf("%d levels: %v", maxParseDepth, e)
	}
}

var benchJSON = func() string {
	var b strings.Builder
	b.WriteString(`{"page":1,"items":[`)
	for i := range 64 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":` + itoa(i) + `,"sku":"SKU-` + itoa(1000+i) + `","name":"Catalog item number ` + itoa(i) + `","price":` + itoa(i) + `.37,"tags":["bench","odd"],"stock":true}`)
	}
	b.WriteString("]}")
	return b.String()
}()

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkParse: this parser against goja's builtin, on 7 KB of the
// call bench's catalog.
func BenchmarkParse(b *testing.B) {
	vm := goja.New()
	orig, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	text := vm.ToValue(benchJSON)
	b.Run("beeuni", func(b *testing.B) {
		p := newParser(vm)
		b.SetBytes(int64(len(benchJSON)))
		for b.Loop() {
			if _, e := p.Parse(benchJSON); e != nil {
				b.Fatal(e)
			}
		}
	})
	b.Run("goja", func(b *testing.B) {
		b.SetBytes(int64(len(benchJSON)))
		for b.Loop() {
			if _, err := orig(goja.Undefined(), text); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestParseSpare: after a huge text, the parser keeps no buffer of its size.
func TestParseSpare(t *testing.T) {
	p := newParser(goja.New())
	big := "[" + strings.Repeat(`"é",`, 100000) + `"é"]`
	if _, e := p.Parse(big); e != nil {
		t.Fatal(e)
	}
	if cap(p.items) > maxSpareItems || cap(p.units) > maxSpareUnits || p.s != "" {
		t.Fatalf("kept items %d, units %d, text %d bytes", cap(p.items), cap(p.units), len(p.s))
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range 200 {
		fmt.Fprintf(&many, `"k%d":"v%d",`, i, i)
	}
	many.WriteString(`"last":1}`)
	if _, e := p.Parse(many.String()); e != nil {
		t.Fatal(e)
	}
	if p.keys != nil || p.short != nil {
		t.Fatalf("kept the maps of 200 keys: %d keys, %d strings (each parse would clear them)", len(p.keys), len(p.short))
	}
	if v, e := p.Parse(`[1,[2,[3]]]`); e != nil || v.String() != "1,2,3" {
		t.Fatalf("the next parse: %v %v", v, e)
	}
}
