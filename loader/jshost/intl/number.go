package intl

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja"
	"golang.org/x/text/currency"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// numberFormat is one Intl.NumberFormat's resolved options.
type numberFormat struct {
	loc                                    resolved
	nu, digits                             string
	style, currency, currencyDisplay, sign string // sign: currencySign
	unit, unitDisplay                      string
	notation, compactDisplay, signDisplay  string
	grouping                               string // auto, always, min2, false
	minInt, minFD, maxFD, minSD, maxSD     int
	roundingType, roundingPriority         string
	roundingMode, trailingZeroDisplay      string
	roundingIncrement                      int
	tag                                    language.Tag
}

var roundingIncrements = map[int]bool{1: true, 2: true, 5: true, 10: true, 20: true, 25: true, 50: true, 100: true, 200: true, 250: true, 500: true, 1000: true, 2000: true, 2500: true, 5000: true}

func newNumberFormat(vm *goja.Runtime, locales, optv goja.Value) *numberFormat {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	nf := &numberFormat{loc: loc}
	o.localeMatcher()
	nf.nu = o.str("numberingSystem", "", "")
	nf.setNumberingSystem(vm)
	nf.style = o.str("style", "decimal", `style must be either "decimal", "percent", "currency", or "unit"`, "decimal", "percent", "currency", "unit")
	cur := o.get("currency")
	if !goja.IsUndefined(cur) {
		s := cur.String()
		if !wellFormedCurrency(s) {
			panic(rangeError(vm, "currency is not a well-formed currency code"))
		}
		nf.currency = strings.ToUpper(s)
	} else if nf.style == "currency" {
		panic(vm.NewTypeError("currency must be a string"))
	}
	nf.currencyDisplay = o.str("currencyDisplay", "symbol", `currencyDisplay must be either "code", "symbol", "narrowSymbol", or "name"`, "code", "symbol", "narrowSymbol", "name")
	nf.sign = o.str("currencySign", "standard", `currencySign must be either "standard" or "accounting"`, "standard", "accounting")
	unit := o.get("unit")
	if !goja.IsUndefined(unit) {
		nf.unit = unit.String()
		if !nf.knownUnit(vm) {
			panic(rangeError(vm, "unit is not a well-formed unit identifier"))
		}
	} else if nf.style == "unit" {
		panic(vm.NewTypeError("unit must be a string"))
	}
	nf.unitDisplay = o.str("unitDisplay", "short", `unitDisplay must be either "short", "narrow", or "long"`, "short", "narrow", "long")
	nf.notation = o.str("notation", "standard", `notation must be either "standard", "scientific", "engineering", or "compact"`, "standard", "scientific", "engineering", "compact")
	mnfd, mxfd := 0, 3
	if nf.style == "currency" && nf.notation == "standard" {
		d := currencyDigits(nf.currency)
		mnfd, mxfd = d, d
	} else if nf.style == "percent" {
		mnfd, mxfd = 0, 0
	}
	nf.digitOptions(vm, o, mnfd, mxfd)
	nf.compactDisplay = o.str("compactDisplay", "short", `compactDisplay must be either "short" or "long"`, "short", "long")
	def := "auto"
	if nf.notation == "compact" {
		def = "min2"
	}
	nf.grouping = groupingOption(vm, o.get("useGrouping"), def)
	nf.signDisplay = o.str("signDisplay", "auto", `signDisplay must be either "auto", "never", "always", "exceptZero", or "negative"`, "auto", "never", "always", "exceptZero", "negative")
	nf.tag, _ = language.Parse(loc.name)
	if nf.style == "unit" && nf.loc.data.Num.Units[nf.unit] == nil {
		panic(unsupported(vm, "Intl.NumberFormat unit %q", nf.unit))
	}
	return nf
}

// setNumberingSystem takes the numberingSystem option, else the -u-nu-
// keyword, else the locale's.
func (nf *numberFormat) setNumberingSystem(vm *goja.Runtime) {
	nss := data().NumberingSystems
	if nf.nu != "" {
		if _, ok := nss[nf.nu]; !ok {
			panic(unsupported(vm, "numberingSystem %q", nf.nu))
		}
	} else if nu := nf.loc.ext["nu"]; nu != "" && nss[nu] != "" {
		nf.nu = nu
	} else {
		nf.nu = nf.loc.data.Num.Nu
	}
	nf.digits = nss[nf.nu]
	// Another numbering system has other symbols where the locale's is not
	// latn, or where it is arab's: those are not recorded.
	if def := nf.loc.data.Num.Nu; nf.nu != def && (def != "latn" || nf.nu == "arab" || nf.nu == "arabext") {
		panic(unsupported(vm, "numberingSystem %q in %s", nf.nu, nf.loc.name)) // its own symbols, not recorded
	}
}

func wellFormedCurrency(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// knownUnit tells whether nf.unit is a unit identifier ECMA-402
// sanctions (one simple unit, or two joined by -per-).
func (nf *numberFormat) knownUnit(vm *goja.Runtime) bool {
	units := nf.loc.data.Num.Units
	if units[nf.unit] != nil {
		return true
	}
	if a, b, ok := strings.Cut(nf.unit, "-per-"); ok && units[a] != nil && units[b] != nil {
		panic(unsupported(vm, "Intl.NumberFormat compound unit %q", nf.unit))
	}
	return false
}

// currencyDigits are ISO 4217's minor digits of code (2 when unknown).
func currencyDigits(code string) int {
	u, err := currency.ParseISO(code)
	if err != nil {
		return 2
	}
	scale, _ := currency.Standard.Rounding(u)
	return scale
}

func groupingOption(vm *goja.Runtime, v goja.Value, def string) string {
	if goja.IsUndefined(v) {
		return def
	}
	if b, ok := v.Export().(bool); ok {
		if b {
			return "always"
		}
		return "false"
	}
	if !v.ToBoolean() {
		return "false"
	}
	switch s := v.String(); s {
	case "min2", "auto", "always":
		return s
	case "true", "false":
		return def
	}
	panic(rangeError(vm, `useGrouping must be either true, false, "min2", "auto", or "always"`))
}

// digitOptions is ECMA-402's SetNumberFormatDigitOptions.
func (nf *numberFormat) digitOptions(vm *goja.Runtime, o options, mnfdDefault, mxfdDefault int) {
	nf.minInt = o.number("minimumIntegerDigits", 1, 21, 1)
	hasSD := o.has("minimumSignificantDigits") || o.has("maximumSignificantDigits")
	hasFD := o.has("minimumFractionDigits") || o.has("maximumFractionDigits")
	mnfd := o.number("minimumFractionDigits", 0, 100, -1)
	mxfd := o.number("maximumFractionDigits", 0, 100, -1)
	mnsd := o.number("minimumSignificantDigits", 1, 21, -1)
	mxsd := o.number("maximumSignificantDigits", 1, 21, -1)
	nf.roundingIncrement = o.number("roundingIncrement", 1, 5000, 1)
	if !roundingIncrements[nf.roundingIncrement] {
		panic(rangeError(vm, "roundingIncrement must be one of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000"))
	}
	nf.roundingMode = o.str("roundingMode", "halfExpand", `roundingMode must be either "ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", or "halfEven"`,
		"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven")
	nf.roundingPriority = o.str("roundingPriority", "auto", `roundingPriority must be either "auto", "morePrecision", or "lessPrecision"`, "auto", "morePrecision", "lessPrecision")
	nf.trailingZeroDisplay = o.str("trailingZeroDisplay", "auto", `trailingZeroDisplay must be either "auto" or "stripIfInteger"`, "auto", "stripIfInteger")
	if nf.roundingIncrement != 1 {
		mxfdDefault = mnfdDefault
	}
	needSD, needFD := true, true
	if nf.roundingPriority == "auto" {
		needSD = hasSD
		if needSD || (!hasFD && nf.notation == "compact") {
			needFD = false
		}
	}
	if needSD {
		if hasSD {
			if mnsd < 0 {
				mnsd = 1
			}
			if mxsd < 0 {
				mxsd = 21
			} else if mxsd < mnsd {
				panic(rangeError(vm, "maximumSignificantDigits is out of range"))
			}
			nf.minSD, nf.maxSD = mnsd, mxsd
		} else {
			nf.minSD, nf.maxSD = 1, 21
		}
	}
	if needFD {
		if hasFD {
			switch {
			case mnfd < 0:
				mnfd = min(mnfdDefault, mxfd)
			case mxfd < 0:
				mxfd = max(mxfdDefault, mnfd)
			case mnfd > mxfd:
				panic(rangeError(vm, "Computed minimumFractionDigits is larger than maximumFractionDigits"))
			}
			nf.minFD, nf.maxFD = mnfd, mxfd
		} else {
			nf.minFD, nf.maxFD = mnfdDefault, mxfdDefault
		}
	}
	switch {
	case !needSD && !needFD:
		nf.minFD, nf.maxFD, nf.minSD, nf.maxSD = 0, 0, 1, 2
		nf.roundingType, nf.roundingPriority = "morePrecision", "morePrecision"
	case nf.roundingPriority == "auto" && needSD:
		nf.roundingType = "significantDigits"
	case nf.roundingPriority == "auto":
		nf.roundingType = "fractionDigits"
	default:
		nf.roundingType = nf.roundingPriority
	}
	if nf.roundingIncrement != 1 {
		if nf.roundingType != "fractionDigits" {
			panic(vm.NewTypeError("rounding type is not fraction-digits"))
		}
		if nf.maxFD != nf.minFD {
			panic(rangeError(vm, "maximum and minimum fraction digits must be equal when roundingIncrement is not 1"))
		}
		panic(unsupported(vm, "Intl.NumberFormat roundingIncrement %d", nf.roundingIncrement))
	}
}

// part is one piece of formatToParts.
type part struct{ typ, value string }

func joinParts(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.value)
	}
	return b.String()
}

// toDecimal is the number format's value of v: Number, BigInt or an
// exact decimal string.
func toDecimal(vm *goja.Runtime, v goja.Value) decimal {
	switch e := v.Export().(type) {
	case *big.Int:
		return fromBig(e)
	case string:
		if _, ok := v.(goja.String); ok {
			return fromString(e)
		}
	}
	if o, ok := v.(*goja.Object); ok {
		if b, ok := o.Export().(*big.Int); ok {
			return fromBig(b)
		}
	}
	return fromFloat(v.ToFloat())
}

// round rounds x by the digit options.
func (nf *numberFormat) round(x decimal) (decimal, int) {
	switch nf.roundingType {
	case "significantDigits":
		return x.roundSignificant(nf.maxSD, nf.roundingMode), nf.minSDFrac(x.roundSignificant(nf.maxSD, nf.roundingMode))
	case "fractionDigits":
		return x.roundFraction(nf.maxFD, nf.roundingMode), nf.minFD
	}
	s := x.roundSignificant(nf.maxSD, nf.roundingMode)
	f := x.roundFraction(nf.maxFD, nf.roundingMode)
	// The rounding magnitude: the power of ten of the last digit kept.
	sMag, fMag := x.magnitude()-nf.maxSD+1, -nf.maxFD
	if x.isZero() {
		sMag = 1 - nf.maxSD
	}
	pickS := sMag <= fMag
	if nf.roundingType == "lessPrecision" {
		pickS = sMag >= fMag
	}
	if pickS {
		return s, nf.minSDFrac(s)
	}
	return f, nf.minFD
}

// minSDFrac is how many fraction digits x needs to show minSD
// significant digits.
func (nf *numberFormat) minSDFrac(x decimal) int {
	if nf.minSD <= 0 {
		return 0
	}
	if x.isZero() {
		return nf.minSD - 1
	}
	return max(0, nf.minSD-x.e)
}

// format is the parts of v formatted.
func (nf *numberFormat) format(vm *goja.Runtime, v goja.Value) []part {
	return nf.formatDecimal(vm, toDecimal(vm, v))
}

func (nf *numberFormat) formatDecimal(vm *goja.Runtime, x decimal) []part {
	num := nf.loc.data.Num
	if nf.style == "percent" {
		x = x.shift(2)
	}
	var inner []part       // the number without its sign
	var wrap, wrapNeg tmpl // compact pattern around it, and its negative form
	exponent := 0
	sci := false
	var rounded decimal
	cat := "other"
	switch {
	case x.nan:
		inner = []part{{"nan", num.NaN}}
	case x.inf:
		inner = []part{{"infinity", num.Inf}}
	default:
		if nf.notation == "compact" {
			x, wrap, wrapNeg = nf.compact(x)
		} else if nf.notation == "scientific" || nf.notation == "engineering" {
			sci = true
			x, exponent = nf.scientific(x)
		}
		var minFrac int
		rounded, minFrac = nf.round(x)
		if nf.trailingZeroDisplay == "stripIfInteger" && rounded.fractionLen() == 0 {
			minFrac = 0
		}
		in, fr := rounded.digits(nf.minInt, minFrac)
		cat = nf.plural(in, fr)
		inner = nf.numberParts(in, fr)
		if sci {
			inner = append(inner, part{"exponentSeparator", num.Exp})
			if exponent < 0 {
				inner = append(inner, part{"exponentMinusSign", num.Minus})
				exponent = -exponent
			}
			inner = append(inner, part{"exponentInteger", localize(strconv.Itoa(exponent), nf.digits)})
		}
	}
	zero := x.nan || !x.inf && rounded.isZero()
	signed := nf.signTemplate(x.neg, zero)
	if wrap != nil {
		if nf.style == "decimal" {
			if signed == signMinus && wrapNeg != nil { // the sign where the pattern puts it
				return substitute(wrapNeg, inner)
			}
			return substitute(wrap, substitute(signed.pick(num.Styles["decimal"]), inner))
		}
		inner = substitute(wrap, inner)
	}
	switch {
	case nf.style == "unit":
		u := pickCat(num.Units[nf.unit][nf.unitDisplay], cat)
		return substitute(u, substitute(signed.pick(num.Styles["decimal"]), inner))
	case nf.style == "currency" && nf.currencyDisplay == "name":
		c, ok := num.Cur[nf.currency]
		if !ok {
			panic(unsupported(vm, "Intl.NumberFormat currencyDisplay \"name\" of %s", nf.currency))
		}
		if signed == signMinus && c.NegNames != nil { // ICU's negative name patterns carry their own sign
			return substitute(pickCat(c.NegNames, cat), inner)
		}
		return substitute(pickCat(c.Names, cat), substitute(signed.pick(num.Styles["decimal"]), inner))
	case nf.style == "currency":
		sym := nf.currencySymbol()
		t := signed.pick(num.Styles[nf.styleKey()])
		if alpha, ok := num.Styles[nf.styleKey()+"Alpha"]; ok && !x.nan && !x.inf && letterNextToNumber(t, sym) {
			// CLDR's alphaNextToNumber pattern, ICU's spacing in it.
			return nf.withCurrency(substitute(signed.pick(alpha), inner), sym, false)
		}
		return nf.withCurrency(substitute(t, inner), sym, true)
	}
	return substitute(signed.pick(num.Styles[nf.style]), inner)
}

// styleKey is the key of the style's patterns in the locale data.
func (nf *numberFormat) styleKey() string {
	switch {
	case nf.style == "currency" && nf.currencyDisplay != "name" && nf.sign == "accounting":
		return "accounting"
	case nf.style == "currency" && nf.currencyDisplay != "name", nf.style == "percent":
		return nf.style
	}
	return "decimal"
}

// sign is which of a style's patterns a value takes.
type sign int

const (
	signNone sign = iota
	signMinus
	signPlus
)

func (s sign) pick(t signTmpl) tmpl {
	switch s {
	case signMinus:
		return t.Neg
	case signPlus:
		return t.Plus
	}
	return t.Pos
}

func (nf *numberFormat) signTemplate(neg, zero bool) sign {
	switch nf.signDisplay {
	case "never":
		return signNone
	case "always":
		if neg {
			return signMinus
		}
		return signPlus
	case "exceptZero":
		if zero {
			return signNone
		}
		if neg {
			return signMinus
		}
		return signPlus
	case "negative":
		if neg && !zero {
			return signMinus
		}
		return signNone
	}
	if neg {
		return signMinus
	}
	return signNone
}

// substitute is t with its ["N"] replaced by n.
func substitute(t tmpl, n []part) []part {
	out := make([]part, 0, len(t)+len(n))
	for _, p := range t {
		if p[0] == "N" {
			out = append(out, n...)
			continue
		}
		out = append(out, part{p[0], p[1]})
	}
	return out
}

func pickCat(m map[string]tmpl, cat string) tmpl {
	if t, ok := m[cat]; ok {
		return t
	}
	return m["other"]
}

// numberParts are the integer (grouped), decimal and fraction parts.
func (nf *numberFormat) numberParts(in, fr string) []part {
	num := nf.loc.data.Num
	dec, grp := num.Dec, num.Grp
	key := nf.styleKey()
	if nf.style == "currency" {
		key = "currency" // names and accounting too
	}
	if st := num.Styles[key]; st.Dec != "" {
		dec, grp = st.Dec, st.Grp
	}
	var out []part
	groups := nf.group(in)
	for i, g := range groups {
		if i > 0 {
			out = append(out, part{"group", grp})
		}
		out = append(out, part{"integer", localize(g, nf.digits)})
	}
	if fr != "" {
		out = append(out, part{"decimal", dec}, part{"fraction", localize(fr, nf.digits)})
	}
	return out
}

// group splits integer digits as the locale groups them.
func (nf *numberFormat) group(in string) []string {
	num := nf.loc.data.Num
	g1, g2 := num.G[0], num.G[1]
	if g := num.Styles[nf.styleKey()].G; g[0] != 0 || g[1] != 0 {
		g1, g2 = g[0], g[1]
	}
	if nf.grouping == "false" || g1 == 0 {
		return []string{in}
	}
	minGroup := num.Mg
	switch nf.grouping {
	case "always":
		minGroup = 1
	case "min2":
		minGroup = max(2, minGroup)
	}
	if len(in) < g1+minGroup {
		return []string{in}
	}
	var groups []string
	last := in[len(in)-g1:]
	rest := in[:len(in)-g1]
	for len(rest) > g2 {
		groups = append([]string{rest[len(rest)-g2:]}, groups...)
		rest = rest[:len(rest)-g2]
	}
	if rest != "" {
		groups = append([]string{rest}, groups...)
	}
	return append(groups, last)
}

// plural is the CLDR cardinal category of the shown digits.
func (nf *numberFormat) plural(in, fr string) string {
	return cardinal(nf.tag, in, fr)
}

func formName(f plural.Form) string {
	switch f {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

// compact scales x by the locale's compact pattern for its magnitude and
// answers the pattern; a rounding that carries into the next magnitude
// takes that magnitude's pattern (999999 is 1M, not 1000K).
func (nf *numberFormat) compact(x decimal) (decimal, tmpl, tmpl) {
	table := nf.loc.data.Num.Compact[nf.compactDisplay]
	mag := x.magnitude()
	for range 2 {
		if x.isZero() || mag < 3 {
			return x, nil, nil
		}
		m := min(mag, 15)
		entry := table[strconv.Itoa(m)]
		div, t, neg := compactEntry(entry, "other")
		scaled := x.shift(-div)
		r, _ := nf.round(scaled)
		if r.magnitude()+div > mag && mag < 15 {
			mag++
			continue
		}
		in, fr := r.digits(1, 0)
		cat := nf.plural(in, fr)
		if _, ok := entry["=1"]; ok && in == "1" && fr == "" {
			cat = "=1" // CLDR's form for exactly 1 (fr "mille")
		}
		if _, ok := entry[cat]; ok {
			div, t, neg = compactEntry(entry, cat)
		}
		return x.shift(-div), t, neg
	}
	return x, nil, nil
}

func compactEntry(entry map[string][]json.RawMessage, cat string) (int, tmpl, tmpl) {
	e, ok := entry[cat]
	if !ok {
		e, ok = entry["other"]
	}
	if !ok { // no sample of "other" in [1, 10) (ro): the divisor is the same in every form
		for k, v := range entry {
			if k != "=1" {
				e = v
				break
			}
		}
	}
	var div int
	var t, neg tmpl
	if len(e) < 2 {
		return 0, nil, nil
	}
	_ = json.Unmarshal(e[0], &div)
	_ = json.Unmarshal(e[1], &t)
	if len(e) > 2 {
		_ = json.Unmarshal(e[2], &neg)
	}
	return div, t, neg
}

// scientific is x's mantissa and exponent (a multiple of 3 for
// engineering).
func (nf *numberFormat) scientific(x decimal) (decimal, int) {
	if x.isZero() {
		return x, 0
	}
	exp := x.magnitude()
	if nf.notation == "engineering" {
		exp = exp - ((exp%3)+3)%3
	}
	m := x.shift(-exp)
	if r, _ := nf.round(m); r.magnitude() >= 1 && (nf.notation == "scientific" || r.magnitude() >= 3) {
		step := 1
		if nf.notation == "engineering" {
			step = 3
		}
		exp += step
		m = x.shift(-exp)
	}
	return m, exp
}

// currencySymbol is what currencyDisplay shows of the currency.
func (nf *numberFormat) currencySymbol() string {
	c, ok := nf.loc.data.Num.Cur[nf.currency]
	switch {
	case nf.currencyDisplay == "code" || !ok:
		return nf.currency
	case nf.currencyDisplay == "narrowSymbol":
		return c.Narrow
	}
	return c.Symbol
}

// withCurrency puts the symbol in the pattern's currency part, with the
// space ICU inserts between digits and a symbol that ends in a letter
// (CLDR currencySpacing).
func (nf *numberFormat) withCurrency(ps []part, sym string, spacing bool) []part {
	out := make([]part, 0, len(ps)+1)
	for i, p := range ps {
		if p.typ != "currency" || !spacing {
			if p.typ == "currency" {
				p.value = sym
			}
			out = append(out, p)
			continue
		}
		p.value = sym
		if i+1 < len(ps) && startsWithDigit(ps[i+1].value) {
			r, _ := utf8.DecodeLastRuneInString(sym)
			out = append(out, p)
			if needsSpacing(r) {
				out = append(out, part{"literal", "\u00a0"})
			}
			continue
		}
		if i > 0 && endsWithDigit(ps[i-1].value) {
			r, _ := utf8.DecodeRuneInString(sym)
			if needsSpacing(r) {
				out = append(out, part{"literal", "\u00a0"})
			}
		}
		out = append(out, p)
	}
	return out
}

// letterNextToNumber tells whether sym, put in t, has a letter next to
// the number.
func letterNextToNumber(t tmpl, sym string) bool {
	for i, p := range t {
		if p[0] != "currency" {
			continue
		}
		if i+1 < len(t) && t[i+1][0] == "N" {
			r, _ := utf8.DecodeLastRuneInString(sym)
			return needsSpacing(r)
		}
		if i > 0 && t[i-1][0] == "N" {
			r, _ := utf8.DecodeRuneInString(sym)
			return needsSpacing(r)
		}
	}
	return false
}

// startsWithDigit and endsWithDigit are CLDR currencySpacing's
// surroundingMatch [:digit:]: no space next to NaN, ∞ or a compact suffix.
func startsWithDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

func endsWithDigit(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsDigit(r)
}

// needsSpacing is CLDR's currencyMatch [[:^S:]&[:^Z:]].
func needsSpacing(r rune) bool {
	return !unicode.IsSymbol(r) && !unicode.IsSpace(r) && r != utf8.RuneError
}

// resolvedOptions is the object resolvedOptions answers, in Bun's order.
func (nf *numberFormat) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	set := func(k string, v any) { _ = o.Set(k, v) }
	set("locale", nf.loc.withNu(nf.nu))
	set("numberingSystem", nf.nu)
	set("style", nf.style)
	if nf.style == "currency" {
		set("currency", nf.currency)
		set("currencyDisplay", nf.currencyDisplay)
		set("currencySign", nf.sign)
	}
	if nf.style == "unit" {
		set("unit", nf.unit)
		set("unitDisplay", nf.unitDisplay)
	}
	nf.setDigits(set)
	if nf.grouping == "false" {
		set("useGrouping", false)
	} else {
		set("useGrouping", nf.grouping)
	}
	set("notation", nf.notation)
	if nf.notation == "compact" {
		set("compactDisplay", nf.compactDisplay)
	}
	set("signDisplay", nf.signDisplay)
	nf.setRounding(set)
	return o
}

// setDigits and setRounding put the digit options into a resolvedOptions
// object (NumberFormat's and PluralRules').
func (nf *numberFormat) setDigits(set func(string, any)) {
	set("minimumIntegerDigits", nf.minInt)
	if nf.roundingType != "significantDigits" {
		set("minimumFractionDigits", nf.minFD)
		set("maximumFractionDigits", nf.maxFD)
	}
	if nf.roundingType != "fractionDigits" {
		set("minimumSignificantDigits", nf.minSD)
		set("maximumSignificantDigits", nf.maxSD)
	}
}

func (nf *numberFormat) setRounding(set func(string, any)) {
	set("roundingIncrement", nf.roundingIncrement)
	set("roundingMode", nf.roundingMode)
	set("roundingPriority", nf.roundingPriority)
	set("trailingZeroDisplay", nf.trailingZeroDisplay)
}
