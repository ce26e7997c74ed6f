package intl

import (
	"strings"
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// collator is one Intl.Collator over x/text's CLDR collation.
type collator struct {
	loc                           resolved
	usage, sensitivity, caseFirst string
	numeric, ignorePunctuation    bool
	c, cased                      *collate.Collator
}

func newCollator(vm *goja.Runtime, locales, optv goja.Value) *collator {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	co := &collator{loc: loc}
	co.usage = o.str("usage", "sort", `usage must be either "sort" or "search"`, "sort", "search")
	o.localeMatcher()
	if c := o.str("collation", "", ""); c != "" && c != "default" {
		panic(unsupported(vm, "Intl.Collator collation %q", c))
	}
	switch o.boolean("numeric") {
	case 2:
		co.numeric = true
	case 0:
		co.numeric = loc.ext["kn"] == "true" || loc.ext["kn"] == "" && hasKey(loc.ext, "kn")
	}
	co.caseFirst = o.str("caseFirst", "false", `caseFirst must be either "upper", "lower", or "false"`, "upper", "lower", "false")
	if co.caseFirst != "false" {
		panic(unsupported(vm, "Intl.Collator caseFirst %q", co.caseFirst))
	}
	co.sensitivity = o.str("sensitivity", "variant", `sensitivity must be either "base", "accent", "case", or "variant"`, "base", "accent", "case", "variant")
	co.ignorePunctuation = o.boolean("ignorePunctuation") == 2
	if co.usage == "search" {
		panic(unsupported(vm, "Intl.Collator usage \"search\""))
	}
	keys := map[string]string{"base": "-ks-level1", "accent": "-ks-level2", "case": "-ks-level1", "variant": "-ks-level3"}[co.sensitivity]
	if co.numeric {
		keys += "-kn-true"
	}
	if co.ignorePunctuation {
		keys += "-ka-shifted"
	}
	tag, err := language.Parse(loc.name)
	if err != nil {
		tag = language.Und
	}
	co.c = collate.New(tag, collate.OptionsFromTag(language.MustParse("und-u"+keys)))
	if co.sensitivity == "case" {
		// x/text has no caseLevel: strings equal at the base level are
		// told apart by case alone, compared without their diacritics.
		co.cased = collate.New(tag, collate.OptionsFromTag(language.MustParse("und-u-ks-level3"+strings.TrimPrefix(keys, "-ks-level1"))))
	}
	return co
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

func (co *collator) compare(a, b string) int {
	c := co.c.CompareString(a, b)
	if c != 0 || co.cased == nil {
		return c
	}
	return co.cased.CompareString(stripMarks(a), stripMarks(b))
}

// stripMarks is s without its combining marks (decomposed first).
func stripMarks(s string) string {
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		return s
	}
	return out
}

func (co *collator) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	set := func(k string, v any) { _ = o.Set(k, v) }
	set("locale", co.loc.name)
	set("usage", co.usage)
	set("sensitivity", co.sensitivity)
	set("ignorePunctuation", co.ignorePunctuation)
	set("collation", "default")
	set("numeric", co.numeric)
	set("caseFirst", co.caseFirst)
	return o
}
