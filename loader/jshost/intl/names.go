package intl

import (
	"slices"
	"strings"

	"github.com/dop251/goja"
)

// displayNames is one Intl.DisplayNames: the long names gen.js recorded
// for regions, languages, currencies and scripts.
type displayNames struct {
	loc                  resolved
	style, typ, fallback string
	languageDisplay      string
}

func newDisplayNames(vm *goja.Runtime, locales, optv goja.Value) *displayNames {
	loc := resolveLocale(vm, locales)
	if optv == nil || goja.IsUndefined(optv) {
		panic(vm.NewTypeError("options argument must be an object"))
	}
	o := newOptions(vm, optv)
	o.localeMatcher()
	if loc.data.Names == nil {
		panic(unsupported(vm, "Intl.DisplayNames in %s", loc.name))
	}
	dn := &displayNames{loc: loc}
	dn.style = o.str("style", "long", `style must be either "narrow", "short", or "long"`, "narrow", "short", "long")
	dn.typ = o.str("type", "", `type must be either "language", "region", "script", "currency", "calendar", or "dateTimeField"`, "language", "region", "script", "currency", "calendar", "dateTimeField")
	if dn.typ == "" {
		panic(vm.NewTypeError("type must not be undefined"))
	}
	dn.fallback = o.str("fallback", "code", `fallback must be either "code" or "none"`, "code", "none")
	dn.languageDisplay = o.str("languageDisplay", "dialect", `languageDisplay must be either "dialect" or "standard"`, "dialect", "standard")
	if dn.typ == "calendar" || dn.typ == "dateTimeField" {
		panic(unsupported(vm, "Intl.DisplayNames type %q", dn.typ))
	}
	if dn.style != "long" {
		panic(unsupported(vm, "Intl.DisplayNames style %q", dn.style))
	}
	return dn
}

func (dn *displayNames) of(vm *goja.Runtime, v goja.Value) goja.Value {
	code := v.String()
	b := data()
	var codes []string
	switch dn.typ {
	case "region":
		code, codes = strings.ToUpper(code), b.Regions
		if len(code) != 2 && len(code) != 3 {
			panic(rangeError(vm, "invalid region code: %s", v.String()))
		}
	case "script":
		if len(code) != 4 {
			panic(rangeError(vm, "invalid script code: %s", v.String()))
		}
		code, codes = strings.ToUpper(code[:1])+strings.ToLower(code[1:]), b.Scripts
	case "currency":
		if !wellFormedCurrency(code) {
			panic(rangeError(vm, "invalid currency code: %s", v.String()))
		}
		code, codes = strings.ToUpper(code), b.Currencies
	case "language":
		c, ok := canonicalTag(code)
		if !ok {
			panic(rangeError(vm, "invalid language tag: %s", v.String()))
		}
		code, codes = c, b.Languages
	}
	i := slices.Index(codes, code)
	if i < 0 {
		if dn.typ == "region" && len(code) == 2 {
			return dn.none(vm, code) // a code ICU names not
		}
		panic(unsupported(vm, "Intl.DisplayNames of %s %q", dn.typ, code))
	}
	names := dn.loc.data.Names[dn.typ]
	if i < len(names) && names[i] != nil {
		return vm.ToValue(*names[i])
	}
	return dn.none(vm, code)
}

func (dn *displayNames) none(vm *goja.Runtime, code string) goja.Value {
	if dn.fallback == "none" {
		return goja.Undefined()
	}
	return vm.ToValue(code)
}

func (dn *displayNames) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	_ = o.Set("locale", dn.loc.name)
	_ = o.Set("style", dn.style)
	_ = o.Set("type", dn.typ)
	_ = o.Set("fallback", dn.fallback)
	if dn.typ == "language" {
		_ = o.Set("languageDisplay", dn.languageDisplay)
	}
	return o
}
