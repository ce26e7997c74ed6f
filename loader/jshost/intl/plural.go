package intl

import (
	"github.com/dop251/goja"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// pluralRules is one Intl.PluralRules: CLDR's rules (x/text) on the
// number as its digit options would show it.
type pluralRules struct {
	nf  *numberFormat // the digit options
	typ string
}

func newPluralRules(vm *goja.Runtime, locales, optv goja.Value) *pluralRules {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	o.localeMatcher()
	pr := &pluralRules{nf: &numberFormat{loc: loc, notation: "standard", style: "decimal"}}
	pr.typ = o.str("type", "cardinal", `type must be "cardinal" or "ordinal"`, "cardinal", "ordinal")
	pr.nf.digitOptions(vm, o, 0, 3)
	pr.nf.tag, _ = language.Parse(loc.name)
	return pr
}

func (pr *pluralRules) selectValue(vm *goja.Runtime, v goja.Value) string {
	x := fromFloat(v.ToFloat())
	if x.nan || x.inf {
		return "other"
	}
	r, minFrac := pr.nf.round(x)
	in, fr := r.digits(1, minFrac)
	if pr.typ == "cardinal" {
		return cardinal(pr.nf.tag, in, fr)
	}
	i, vv, w, f, t := pluralOperands(in, fr)
	return formName(plural.Ordinal.MatchPlural(pr.nf.tag, i, vv, w, f, t))
}

func (pr *pluralRules) resolvedOptions(vm *goja.Runtime) *goja.Object {
	nf := pr.nf
	o := vm.NewObject()
	set := func(k string, v any) { _ = o.Set(k, v) }
	set("locale", nf.loc.name)
	set("type", pr.typ)
	set("notation", "standard")
	nf.setDigits(set)
	cats := nf.loc.data.Plural
	if pr.typ == "ordinal" {
		cats = nf.loc.data.Ordinal
	}
	set("pluralCategories", orEmpty(cats))
	nf.setRounding(set)
	return o
}
