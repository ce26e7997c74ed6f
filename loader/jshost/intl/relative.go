package intl

import (
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// relativeTimeFormat is one Intl.RelativeTimeFormat.
type relativeTimeFormat struct {
	loc            resolved
	style, numeric string
	nf             *numberFormat // the number, as NumberFormat writes it
}

func newRelativeTimeFormat(vm *goja.Runtime, locales, optv goja.Value) *relativeTimeFormat {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	o.localeMatcher()
	nfOpts := vm.NewObject()
	if nu := o.get("numberingSystem"); !goja.IsUndefined(nu) {
		_ = nfOpts.Set("numberingSystem", nu)
	}
	if loc.data.RTF == nil {
		panic(unsupported(vm, "Intl.RelativeTimeFormat in %s", loc.name))
	}
	rf := &relativeTimeFormat{loc: loc}
	rf.style = o.str("style", "long", `style must be either "long", "short", or "narrow"`, "long", "short", "narrow")
	rf.numeric = o.str("numeric", "always", `numeric must be either "always" or "auto"`, "always", "auto")
	rf.nf = newNumberFormat(vm, vm.ToValue(loc.name), nfOpts)
	rf.nf.loc = loc
	return rf
}

var rtfUnits = map[string]string{"second": "second", "minute": "minute", "hour": "hour", "day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"}

func (rf *relativeTimeFormat) unitOf(vm *goja.Runtime, v goja.Value) string {
	u := v.String()
	if s, ok := rtfUnits[strings.TrimSuffix(u, "s")]; ok {
		return s
	}
	panic(rangeError(vm, "unit argument is not a recognized unit type"))
}

func (rf *relativeTimeFormat) format(vm *goja.Runtime, value, unitv goja.Value) []part {
	f := value.ToFloat()
	unit := rf.unitOf(vm, unitv)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		panic(rangeError(vm, "number argument must be finite"))
	}
	u := rf.loc.data.RTF[rf.style][unit]
	if rf.numeric == "auto" && f == math.Trunc(f) {
		if s, ok := u.Auto[strconv.FormatFloat(math.Abs(f)*sgn(f), 'f', -1, 64)]; ok {
			return []part{{"literal", s}}
		}
	}
	x := fromFloat(math.Abs(f))
	past := f < 0 || (f == 0 && math.Signbit(f))
	r, minFrac := rf.nf.round(x)
	in, fr := r.digits(rf.nf.minInt, minFrac)
	cat := rf.nf.plural(in, fr)
	num := rf.nf.numberParts(in, fr)
	t := u.Future
	if past {
		t = u.Past
	}
	return substitute(pickCat(t, cat), num)
}

func sgn(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

func (rf *relativeTimeFormat) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	_ = o.Set("locale", rf.loc.name)
	_ = o.Set("style", rf.style)
	_ = o.Set("numeric", rf.numeric)
	_ = o.Set("numberingSystem", rf.nf.nu)
	return o
}
