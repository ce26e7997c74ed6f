package intl

import (
	"strings"

	"github.com/dop251/goja"
)

// listFormat is one Intl.ListFormat: the locale's pair pattern and its
// start, middle and end separators.
type listFormat struct {
	loc        resolved
	typ, style string
	pat        [4]string
}

func newListFormat(vm *goja.Runtime, locales, optv goja.Value) *listFormat {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	o.localeMatcher()
	lf := &listFormat{loc: loc}
	lf.typ = o.str("type", "conjunction", `type must be either "conjunction", "disjunction", or "unit"`, "conjunction", "disjunction", "unit")
	lf.style = o.str("style", "long", `style must be either "long", "short", or "narrow"`, "long", "short", "narrow")
	pat, ok := loc.data.List[lf.typ][lf.style]
	if !ok {
		panic(unsupported(vm, "Intl.ListFormat type %q style %q in %s", lf.typ, lf.style, loc.name))
	}
	lf.pat = pat
	return lf
}

func (lf *listFormat) format(items []string) []part {
	switch len(items) {
	case 0:
		return nil
	case 1:
		return []part{{"element", items[0]}}
	case 2:
		var out []part
		rest := lf.pat[0]
		for rest != "" {
			i := strings.IndexByte(rest, '{')
			if i < 0 || i+2 >= len(rest) {
				out = append(out, part{"literal", rest})
				break
			}
			if i > 0 {
				out = append(out, part{"literal", rest[:i]})
			}
			out = append(out, part{"element", items[int(rest[i+1]-'0')]})
			rest = rest[i+3:]
		}
		return out
	}
	out := []part{{"element", items[0]}, {"literal", lf.pat[1]}}
	for _, it := range items[1 : len(items)-1] {
		out = append(out, part{"element", it}, part{"literal", lf.pat[2]})
	}
	out[len(out)-1].value = lf.pat[3]
	return append(out, part{"element", items[len(items)-1]})
}

func (lf *listFormat) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	_ = o.Set("locale", lf.loc.name)
	_ = o.Set("type", lf.typ)
	_ = o.Set("style", lf.style)
	return o
}
