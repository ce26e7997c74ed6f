package intl

import (
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/text/language"
)

// defaultLocale is what ICU answers in Bun when no locale is asked for
// or none asked for is known.
const defaultLocale = "en-US"

// canonicalLocales is Intl.getCanonicalLocales: the tags of v (undefined,
// a string, an Intl.Locale or a list of them) in canonical form, without
// repeats. A tag that is not BCP 47 is a RangeError, a list element that
// is neither string nor object a TypeError, as in Bun.
func canonicalLocales(vm *goja.Runtime, v goja.Value) []string {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	var in []goja.Value
	if _, ok := v.Export().(string); ok {
		in = []goja.Value{v}
	} else if o, ok := v.(*goja.Object); ok && isLocaleObject(o) {
		in = []goja.Value{v}
	} else {
		if goja.IsNull(v) {
			panic(vm.NewTypeError("locales argument must be an object"))
		}
		o := v.ToObject(vm)
		n := toLength(o.Get("length"))
		for i := int64(0); i < n; i++ {
			in = append(in, o.Get(itoa(i)))
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range in {
		var s string
		switch x := e.(type) {
		case goja.String:
			s = x.String()
		case *goja.Object:
			s = x.String()
		default:
			panic(vm.NewTypeError("locale value must be a string or object"))
		}
		c, ok := canonicalTag(s)
		if !ok {
			panic(rangeError(vm, "invalid language tag: %s", s))
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// canonicalTag is s as UTS 35 writes it (case, deprecated codes), false if s
// is not a well-formed BCP 47 tag.
func canonicalTag(s string) (string, bool) {
	if !wellFormed.MatchString(s) {
		return "", false
	}
	t, err := language.Parse(s)
	if err == nil {
		return t.String(), true
	}
	// Well-formed but unknown to x/text (xx, en-ZZ): its subtags in
	// canonical case, as ICU keeps them.
	subs := strings.Split(strings.ToLower(s), "-")
	for i, sub := range subs {
		if i == 0 {
			continue
		}
		if len(subs[i-1]) == 1 {
			break // an extension: lower case throughout
		}
		switch {
		case len(sub) == 4 && i == 1:
			subs[i] = strings.ToUpper(sub[:1]) + sub[1:]
		case len(sub) == 2:
			subs[i] = strings.ToUpper(sub)
		}
	}
	return strings.Join(subs, "-"), true
}

// wellFormed is a BCP 47 language tag (RFC 5646 langtag, without the
// grandfathered forms).
var wellFormed = regexp.MustCompile(`(?i)^(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?` +
	`(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$`)

// resolved is the outcome of locale negotiation: the data used, its
// name, and the Unicode extension keywords of the request that matched.
type resolved struct {
	data *localeData
	name string
	ext  map[string]string
}

// resolveLocale picks the data for the requested locales as ICU's lookup
// does: each tag, then its CLDR parents (en-AU, en-001, en), and the
// default when none is known.
func resolveLocale(vm *goja.Runtime, locales goja.Value) resolved {
	b := data()
	for _, req := range canonicalLocales(vm, locales) {
		base, ext := splitExtensions(req)
		if name, d := b.lookup(base); d != nil {
			return resolved{data: d, name: name, ext: ext}
		}
	}
	return resolved{data: b.locale(defaultLocale), name: defaultLocale, ext: map[string]string{}}
}

// lookup finds base or the nearest parent that has data.
func (b *bundle) lookup(base string) (string, *localeData) {
	if d := b.locale(base); d != nil {
		return base, d
	}
	t, err := language.Parse(base)
	if err != nil {
		return "", nil
	}
	for !t.IsRoot() {
		t = t.Parent()
		if d := b.locale(t.String()); d != nil {
			return t.String(), d
		}
	}
	return "", nil
}

// splitExtensions cuts a canonical tag into the tag without extensions
// and its -u- keywords (key: type, "true" when the type is left out).
func splitExtensions(tag string) (string, map[string]string) {
	ext := map[string]string{}
	subs := strings.Split(tag, "-")
	base := subs
	for i, s := range subs {
		if len(s) == 1 {
			base = subs[:i]
			if s == "u" {
				key := ""
				for _, k := range subs[i+1:] {
					if len(k) == 1 {
						break
					}
					if len(k) == 2 {
						key = k
						ext[key] = "true"
					} else if key != "" {
						if ext[key] == "true" {
							ext[key] = k
						} else {
							ext[key] += "-" + k
						}
					}
				}
			}
			break
		}
	}
	return strings.Join(base, "-"), ext
}

// withNu is the resolved locale's name, with -u-nu- when the numbering
// system used is the one the request named.
func (r resolved) withNu(nu string) string {
	if r.ext["nu"] == nu {
		return withExtensions(r.name, "nu", nu)
	}
	return r.name
}

// withExtensions is the resolved locale's name with the keywords that
// were used, in key order.
func withExtensions(name string, kv ...string) string {
	var b strings.Builder
	b.WriteString(name)
	first := true
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		if first {
			b.WriteString("-u")
			first = false
		}
		b.WriteString("-" + kv[i])
		if kv[i+1] != "true" {
			b.WriteString("-" + kv[i+1])
		}
	}
	return b.String()
}
