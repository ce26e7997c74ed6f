package intl

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// natives are the Go bindings js/intl.js builds the classes on: one
// constructor a class, answering an object of the instance's methods.
func natives(r *rt.Runtime) *goja.Object {
	vm := r.VM
	n := vm.NewObject()
	set := func(name string, f func(goja.FunctionCall) goja.Value) { _ = n.Set(name, guard(vm, f)) }
	set("numberFormat", func(c goja.FunctionCall) goja.Value {
		nf := newNumberFormat(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"format":   func(c goja.FunctionCall) goja.Value { return vm.ToValue(joinParts(nf.format(vm, c.Argument(0)))) },
			"parts":    func(c goja.FunctionCall) goja.Value { return partsValue(vm, nf.format(vm, c.Argument(0)), "") },
			"resolved": func(goja.FunctionCall) goja.Value { return nf.resolvedOptions(vm) },
		})
	})
	set("dateTimeFormat", func(c goja.FunctionCall) goja.Value {
		df := newDateTimeFormat(vm, c.Argument(0), c.Argument(1), c.Argument(2).String(), c.Argument(3).String())
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"format":   func(c goja.FunctionCall) goja.Value { return vm.ToValue(joinParts(df.format(vm, c.Argument(0)))) },
			"parts":    func(c goja.FunctionCall) goja.Value { return partsValue(vm, df.format(vm, c.Argument(0)), "") },
			"resolved": func(goja.FunctionCall) goja.Value { return df.resolvedOptions(vm) },
		})
	})
	set("pluralRules", func(c goja.FunctionCall) goja.Value {
		pr := newPluralRules(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"select":   func(c goja.FunctionCall) goja.Value { return vm.ToValue(pr.selectValue(vm, c.Argument(0))) },
			"resolved": func(goja.FunctionCall) goja.Value { return pr.resolvedOptions(vm) },
		})
	})
	set("collator", func(c goja.FunctionCall) goja.Value {
		co := newCollator(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"compare": func(c goja.FunctionCall) goja.Value {
				return vm.ToValue(co.compare(c.Argument(0).String(), c.Argument(1).String()))
			},
			"resolved": func(goja.FunctionCall) goja.Value { return co.resolvedOptions(vm) },
		})
	})
	set("relativeTimeFormat", func(c goja.FunctionCall) goja.Value {
		rf := newRelativeTimeFormat(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"format": func(c goja.FunctionCall) goja.Value {
				return vm.ToValue(joinParts(rf.format(vm, c.Argument(0), c.Argument(1))))
			},
			"parts": func(c goja.FunctionCall) goja.Value {
				return partsValue(vm, rf.format(vm, c.Argument(0), c.Argument(1)), rf.unitOf(vm, c.Argument(1)))
			},
			"resolved": func(goja.FunctionCall) goja.Value { return rf.resolvedOptions(vm) },
		})
	})
	set("listFormat", func(c goja.FunctionCall) goja.Value {
		lf := newListFormat(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"format": func(c goja.FunctionCall) goja.Value {
				return vm.ToValue(joinParts(lf.format(stringList(vm, c.Argument(0)))))
			},
			"parts": func(c goja.FunctionCall) goja.Value {
				return partsValue(vm, lf.format(stringList(vm, c.Argument(0))), "")
			},
			"resolved": func(goja.FunctionCall) goja.Value { return lf.resolvedOptions(vm) },
		})
	})
	set("displayNames", func(c goja.FunctionCall) goja.Value {
		dn := newDisplayNames(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"of":       func(c goja.FunctionCall) goja.Value { return dn.of(vm, c.Argument(0)) },
			"resolved": func(goja.FunctionCall) goja.Value { return dn.resolvedOptions(vm) },
		})
	})
	set("segmenter", func(c goja.FunctionCall) goja.Value {
		sg := newSegmenter(vm, c.Argument(0), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"segment": func(c goja.FunctionCall) goja.Value {
				starts, like := sg.segment(vm, c.Argument(0).String())
				o := vm.NewObject()
				_ = o.Set("starts", starts)
				if sg.granularity == "word" {
					_ = o.Set("wordLike", like)
				}
				return o
			},
			"resolved": func(goja.FunctionCall) goja.Value { return sg.resolvedOptions(vm) },
		})
	})
	set("locale", func(c goja.FunctionCall) goja.Value {
		l := newLocale(vm, c.Argument(0).String(), c.Argument(1))
		return methods(vm, map[string]func(goja.FunctionCall) goja.Value{
			"get": func(c goja.FunctionCall) goja.Value { return l.get(vm, c.Argument(0).String()) },
		})
	})
	set("getCanonicalLocales", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(orEmpty(canonicalLocales(vm, c.Argument(0))))
	})
	set("supportedLocalesOf", func(c goja.FunctionCall) goja.Value {
		newOptions(vm, c.Argument(1)).localeMatcher()
		var out []string
		for _, l := range canonicalLocales(vm, c.Argument(0)) {
			base, _ := splitExtensions(l)
			if _, d := data().lookup(base); d != nil {
				out = append(out, l)
			}
		}
		return vm.ToValue(orEmpty(out))
	})
	set("supportedValuesOf", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(supportedValuesOf(vm, c.Argument(0).String()))
	})
	return n
}

func orEmpty(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func methods(vm *goja.Runtime, m map[string]func(goja.FunctionCall) goja.Value) *goja.Object {
	o := vm.NewObject()
	for k, f := range m {
		_ = o.Set(k, guard(vm, f))
	}
	return o
}

// guard turns a Go runtime error in a binding (a bug: an index out of
// range) into a TypeError naming it, so the call fails and the runtime
// lives on. Every other panic (a JS error, goja's interrupt) goes on.
func guard(vm *goja.Runtime, f func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		defer func() {
			if r := recover(); r != nil {
				if err, ok := r.(runtime.Error); ok {
					panic(vm.NewTypeError(fmt.Sprintf("internal error in beeuni's Intl: %v", err)))
				}
				panic(r)
			}
		}()
		return f(c)
	}
}

// partsValue is formatToParts' array; unit, when set, is every
// numeric part's unit property (RelativeTimeFormat's).
func partsValue(vm *goja.Runtime, ps []part, unit string) goja.Value {
	out := make([]any, len(ps))
	for i, p := range ps {
		o := vm.NewObject()
		_ = o.Set("type", p.typ)
		_ = o.Set("value", p.value)
		if unit != "" && p.typ != "literal" {
			_ = o.Set("unit", unit)
		}
		out[i] = o
	}
	return vm.ToValue(out)
}

func stringList(vm *goja.Runtime, v goja.Value) []string {
	var out []string
	_ = vm.ExportTo(v, &out)
	return out
}

func isLocaleObject(o *goja.Object) bool {
	v := o.GetSymbol(goja.SymToStringTag)
	return v != nil && v.String() == "Intl.Locale"
}

// supportedValuesOf answers Intl.supportedValuesOf for what this Intl
// formats.
func supportedValuesOf(vm *goja.Runtime, key string) []any {
	b := data()
	var out []string
	switch key {
	case "calendar":
		out = []string{"gregory"}
	case "collation":
		out = []string{"default"}
	case "currency":
		out = slices.Clone(b.Currencies)
	case "numberingSystem":
		for k := range b.NumberingSystems {
			out = append(out, k)
		}
	case "timeZone":
		for _, g := range b.ZoneGroups {
			out = append(out, g...)
		}
		out = slices.DeleteFunc(out, func(z string) bool { return z == "UTC" })
	case "unit":
		for k := range b.locale(defaultLocale).Num.Units {
			if !strings.Contains(k, "-per-") { // Bun lists the simple units
				out = append(out, k)
			}
		}
	default:
		panic(rangeError(vm, "Unknown key for Intl.supportedValuesOf"))
	}
	slices.SortFunc(out, strings.Compare)
	return orEmpty(out)
}
