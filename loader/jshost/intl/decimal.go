package intl

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// decimal is an exact decimal number: 0.d × 10^e, d without leading or
// trailing zeros (empty for zero). Numbers enter as their shortest
// round-trip digits, as ICU takes them (so 1.005 rounds to 1.01).
type decimal struct {
	neg      bool
	d        []byte
	e        int
	nan, inf bool
}

func fromFloat(f float64) decimal {
	switch {
	case math.IsNaN(f):
		return decimal{nan: true}
	case math.IsInf(f, 0):
		return decimal{inf: true, neg: f < 0}
	}
	x := decimal{neg: math.Signbit(f)}
	if f == 0 {
		return x
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // 1.2345e+06
	mant, exp, _ := strings.Cut(s, "e")
	n, _ := strconv.Atoi(exp)
	x.d = []byte(strings.Replace(mant, ".", "", 1))
	x.e = n + 1
	x.trim()
	return x
}

func fromBig(b *big.Int) decimal {
	s := b.String()
	x := decimal{}
	if strings.HasPrefix(s, "-") {
		x.neg, s = true, s[1:]
	}
	x.d, x.e = []byte(s), len(s)
	x.trim()
	return x
}

var decimalLiteral = regexp.MustCompile(`^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$`)

// fromString reads a string as Intl.NumberFormat does (a
// StringNumericLiteral, exactly): NaN when it is not one.
func fromString(s string) decimal {
	s = strings.TrimSpace(s)
	switch s {
	case "":
		return decimal{}
	case "Infinity", "+Infinity":
		return decimal{inf: true}
	case "-Infinity":
		return decimal{inf: true, neg: true}
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			if b, ok := new(big.Int).SetString(s[2:], base); ok && !strings.ContainsAny(s[2:], "+-_") {
				return fromBig(b)
			}
			return decimal{nan: true}
		}
	}
	m := decimalLiteral.FindStringSubmatch(s)
	if m == nil || m[2]+m[3] == "" {
		return decimal{nan: true}
	}
	x := decimal{neg: m[1] == "-"}
	exp := 0
	if m[4] != "" {
		n, err := strconv.Atoi(m[4])
		if err != nil {
			return decimal{inf: true, neg: x.neg}
		}
		exp = n
	}
	x.d = []byte(m[2] + m[3])
	x.e = len(m[2]) + exp
	x.trim()
	return x
}

// trim drops leading zeros (moving e) and trailing zeros.
func (x *decimal) trim() {
	i := 0
	for i < len(x.d) && x.d[i] == '0' {
		i++
	}
	x.d = x.d[i:]
	x.e -= i
	j := len(x.d)
	for j > 0 && x.d[j-1] == '0' {
		j--
	}
	x.d = x.d[:j]
	if len(x.d) == 0 {
		x.e = 0
	}
}

func (x decimal) isZero() bool { return !x.nan && !x.inf && len(x.d) == 0 }

// magnitude is the power of ten of the first digit (0 for zero).
func (x decimal) magnitude() int {
	if len(x.d) == 0 {
		return 0
	}
	return x.e - 1
}

func (x decimal) shift(n int) decimal {
	if len(x.d) > 0 {
		x.e += n
	}
	return x
}

// roundAt keeps the first cut digits of x (cut may be 0 or less: all
// digits are past the rounding position) by mode.
func (x decimal) roundAt(cut int, mode string) decimal {
	if x.nan || x.inf || cut >= len(x.d) {
		return x
	}
	var keep, rest []byte
	if cut > 0 {
		keep, rest = x.d[:cut], x.d[cut:]
	} else {
		rest = x.d // preceded by -cut zeros: below half unless cut == 0
	}
	nonzero := len(rest) > 0
	half := 0 // -1 below half, 0 exactly half, 1 above
	switch {
	case cut < 0 || rest[0] < '5':
		half = -1
	case rest[0] > '5' || len(rest) > 1:
		half = 1
	}
	odd := len(keep) > 0 && (keep[len(keep)-1]-'0')%2 == 1
	var up bool
	switch mode {
	case "ceil":
		up = nonzero && !x.neg
	case "floor":
		up = nonzero && x.neg
	case "expand":
		up = nonzero
	case "trunc":
		up = false
	case "halfCeil":
		up = half > 0 || (half == 0 && !x.neg)
	case "halfFloor":
		up = half > 0 || (half == 0 && x.neg)
	case "halfTrunc":
		up = half > 0
	case "halfEven":
		up = half > 0 || (half == 0 && odd)
	default: // halfExpand
		up = half >= 0
	}
	y := decimal{neg: x.neg, e: x.e}
	if !up {
		if cut <= 0 {
			return decimal{neg: x.neg}
		}
		y.d = append([]byte(nil), keep...)
		y.trim()
		return y
	}
	if cut <= 0 {
		y.d, y.e = []byte{'1'}, x.e-cut+1
		return y
	}
	d := append([]byte(nil), keep...)
	i := len(d) - 1
	for i >= 0 && d[i] == '9' {
		d[i] = '0'
		i--
	}
	if i < 0 {
		d = append([]byte{'1'}, d...)
		y.e++
	} else {
		d[i]++
	}
	y.d = d
	y.trim()
	return y
}

// roundFraction rounds to max fraction digits.
func (x decimal) roundFraction(max int, mode string) decimal { return x.roundAt(x.e+max, mode) }

// roundSignificant rounds to max significant digits.
func (x decimal) roundSignificant(max int, mode string) decimal { return x.roundAt(max, mode) }

// digits are the integer and fraction digits of x, at least minInt
// integer digits and minFrac fraction digits.
func (x decimal) digits(minInt, minFrac int) (string, string) {
	var in, fr string
	if x.e > 0 {
		if x.e >= len(x.d) {
			in = string(x.d) + strings.Repeat("0", x.e-len(x.d))
		} else {
			in, fr = string(x.d[:x.e]), string(x.d[x.e:])
		}
	} else {
		in = "0"
		if len(x.d) > 0 {
			fr = strings.Repeat("0", -x.e) + string(x.d)
		}
	}
	if len(in) < minInt {
		in = strings.Repeat("0", minInt-len(in)) + in
	}
	if len(fr) < minFrac {
		fr += strings.Repeat("0", minFrac-len(fr))
	}
	return in, fr
}

// fractionLen is the number of fraction digits x has.
func (x decimal) fractionLen() int { return max(0, len(x.d)-x.e) }

// pluralOperands are CLDR's i, v, w, f and t of the formatted digits.
func pluralOperands(in, fr string) (i, v, w, f, t int) {
	if len(in) > 6 { // the rules look at i mod 10, 100, 1000 and at i = 0 or 1 only
		n, _ := strconv.Atoi(in[len(in)-6:])
		i = n + 1000000
	} else {
		i, _ = strconv.Atoi(in)
	}
	v = len(fr)
	if len(fr) > 6 {
		fr = fr[:6]
	}
	f, _ = strconv.Atoi("0" + fr)
	tr := strings.TrimRight(fr, "0")
	w = len(tr)
	t, _ = strconv.Atoi("0" + tr)
	return
}
