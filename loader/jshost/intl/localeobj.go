package intl

import (
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/text/language"
)

// localeObject is one Intl.Locale: a canonical tag and its keywords.
type localeObject struct {
	tag  language.Tag
	base string
	ext  map[string]string
}

// localeKeys are the options that set -u- keywords, in tag order.
var localeKeys = []struct{ option, key string }{
	{"calendar", "ca"}, {"collation", "co"}, {"hourCycle", "hc"}, {"caseFirst", "kf"}, {"numeric", "kn"}, {"numberingSystem", "nu"},
}

func newLocale(vm *goja.Runtime, tag string, optv goja.Value) *localeObject {
	c, ok := canonicalTag(tag)
	if !ok {
		panic(rangeError(vm, "invalid language tag: %s", tag))
	}
	o := newOptions(vm, optv)
	base, ext := splitExtensions(c)
	subs := strings.Split(base, "-")
	lang, script, region := subs[0], "", ""
	var rest []string
	for _, s := range subs[1:] {
		switch {
		case len(s) == 4 && script == "" && region == "":
			script = s
		case (len(s) == 2 || len(s) == 3 && s[0] >= '0' && s[0] <= '9') && region == "":
			region = s
		default:
			rest = append(rest, s)
		}
	}
	if v := o.str("language", "", ""); v != "" {
		lang = strings.ToLower(v)
	}
	if v := o.str("script", "", ""); v != "" {
		script = strings.ToUpper(v[:1]) + strings.ToLower(v[1:])
	}
	if v := o.str("region", "", ""); v != "" {
		region = strings.ToUpper(v)
	}
	for _, k := range localeKeys {
		if k.option == "numeric" {
			if b := o.boolean("numeric"); b != 0 {
				ext["kn"] = map[int]string{1: "false", 2: "true"}[b]
			}
			continue
		}
		if v := o.str(k.option, "", ""); v != "" {
			ext[k.key] = v
		}
	}
	parts := []string{lang}
	if script != "" {
		parts = append(parts, script)
	}
	if region != "" {
		parts = append(parts, region)
	}
	parts = append(parts, rest...)
	l := &localeObject{base: strings.Join(parts, "-"), ext: ext}
	l.tag, _ = language.Parse(l.base)
	return l
}

func (l *localeObject) String() string {
	var kv []string
	for _, k := range []string{"ca", "co", "hc", "kf", "kn", "nu"} {
		if v, ok := l.ext[k]; ok {
			kv = append(kv, k, v)
		}
	}
	return withExtensions(l.base, kv...)
}

func (l *localeObject) get(vm *goja.Runtime, what string) goja.Value {
	opt := func(k string) goja.Value {
		if v, ok := l.ext[k]; ok {
			return vm.ToValue(v)
		}
		return goja.Undefined()
	}
	switch what {
	case "toString":
		return vm.ToValue(l.String())
	case "baseName":
		return vm.ToValue(l.base)
	case "language":
		return vm.ToValue(strings.Split(l.base, "-")[0])
	case "script":
		if s, conf := l.tag.Script(); conf == language.Exact {
			return vm.ToValue(s.String())
		}
		return goja.Undefined()
	case "region":
		if r, conf := l.tag.Region(); conf == language.Exact {
			return vm.ToValue(r.String())
		}
		return goja.Undefined()
	case "calendar":
		return opt("ca")
	case "collation":
		return opt("co")
	case "hourCycle":
		return opt("hc")
	case "caseFirst":
		return opt("kf")
	case "numberingSystem":
		return opt("nu")
	case "numeric":
		return vm.ToValue(l.ext["kn"] == "true")
	case "maximize":
		b, _ := l.tag.Base()
		s, _ := l.tag.Script()
		r, _ := l.tag.Region()
		max := &localeObject{base: b.String() + "-" + s.String() + "-" + r.String(), ext: l.ext}
		return vm.ToValue(max.String())
	case "minimize":
		full, _ := language.Parse(l.base)
		b, _ := full.Base()
		min := b.String()
		for _, cand := range []string{b.String(), b.String() + "-" + regionOf(full), b.String() + "-" + scriptOf(full)} {
			t, err := language.Parse(cand)
			if err == nil && sameLikely(t, full) {
				min = cand
				break
			}
		}
		return vm.ToValue((&localeObject{base: min, ext: l.ext}).String())
	}
	return goja.Undefined()
}

func regionOf(t language.Tag) string { r, _ := t.Region(); return r.String() }
func scriptOf(t language.Tag) string { s, _ := t.Script(); return s.String() }

func sameLikely(a, b language.Tag) bool {
	return regionOf(a) == regionOf(b) && scriptOf(a) == scriptOf(b)
}
