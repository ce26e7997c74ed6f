package intl

import "testing"

func TestDecimalRound(t *testing.T) {
	for _, c := range []struct {
		in      float64
		frac    int
		mode    string
		int, fr string
	}{
		{1.005, 2, "halfExpand", "1", "01"},
		{1234.5, 0, "halfExpand", "1235", ""},
		{1234.5, 0, "halfEven", "1234", ""},
		{1235.5, 0, "halfEven", "1236", ""},
		{-1234.5, 0, "halfCeil", "1234", ""},
		{-1234.5, 0, "halfFloor", "1235", ""},
		{1234.1, 0, "ceil", "1235", ""},
		{-1234.1, 0, "ceil", "1234", ""},
		{1234.9, 0, "trunc", "1234", ""},
		{1234.1, 0, "expand", "1235", ""},
		{999.96, 1, "halfExpand", "1000", ""},
		{0.000123, 3, "halfExpand", "0", ""},
		{0.0005, 3, "halfExpand", "0", "001"},
		{0.0004, 3, "expand", "0", "001"},
		{1e21, 0, "halfExpand", "1000000000000000000000", ""},
		{0, 2, "halfExpand", "0", ""},
	} {
		got := fromFloat(c.in).roundFraction(c.frac, c.mode)
		in, fr := got.digits(1, 0)
		if in != c.int || fr != c.fr {
			t.Errorf("%v to %d fraction digits (%s): %s.%s, want %s.%s", c.in, c.frac, c.mode, in, fr, c.int, c.fr)
		}
	}
}

func TestDecimalFromString(t *testing.T) {
	for _, c := range []struct{ in, int, fr string }{
		{"1234567890.123456789", "1234567890", "123456789"},
		{" 12e3 ", "12000", ""},
		{"0x1F", "31", ""},
		{".5", "0", "5"},
		{"-0.25e-1", "0", "025"},
		{"", "0", ""},
	} {
		x := fromString(c.in)
		in, fr := x.digits(1, 0)
		if x.nan || in != c.int || fr != c.fr {
			t.Errorf("%q: %s.%s (nan %v), want %s.%s", c.in, in, fr, x.nan, c.int, c.fr)
		}
	}
	for _, bad := range []string{"abc", "1.2.3", "0x", "1e"} {
		if !fromString(bad).nan {
			t.Errorf("%q is not NaN", bad)
		}
	}
}

func TestPluralOperands(t *testing.T) {
	for _, c := range []struct {
		in, fr        string
		i, v, w, f, t int
	}{
		{"1", "", 1, 0, 0, 0, 0},
		{"1", "50", 1, 2, 1, 50, 5},
		{"12345678", "", 1345678, 0, 0, 0, 0},
	} {
		i, v, w, f, tt := pluralOperands(c.in, c.fr)
		if i != c.i || v != c.v || w != c.w || f != c.f || tt != c.t {
			t.Errorf("%s.%s: %d %d %d %d %d", c.in, c.fr, i, v, w, f, tt)
		}
	}
}
