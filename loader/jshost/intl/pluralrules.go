package intl

import (
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// cardinal is the CLDR cardinal category of the digits in, fr for tag:
// x/text's rules, with the languages whose rules CLDR changed since
// x/text's data as ICU (Bun) has them now.
func cardinal(tag language.Tag, in, fr string) string {
	i, v, w, f, t := pluralOperands(in, fr)
	base, _ := tag.Base()
	// CLDR 38+: "many" for whole millions (1 000 000, 2 000 000).
	million := v == 0 && len(in) > 6 && strings.TrimLeft(in, "0") != "" && strings.HasSuffix(in, "000000")
	switch base.String() {
	case "fr":
		switch {
		case i == 0 || i == 1 && !(len(in) > 6):
			return "one"
		case million:
			return "many"
		}
		return "other"
	case "es", "it", "ca", "pt":
		if million {
			return "many"
		}
	case "he":
		switch {
		case i == 1 && v == 0 && len(in) <= 6 || in == "0" && v != 0:
			return "one"
		case i == 2 && v == 0 && len(in) <= 6:
			return "two"
		}
		return "other"
	case "mr":
		if in == "1" && f == 0 {
			return "one"
		}
		return "other"
	case "is":
		if t == 0 && i%10 == 1 && i%100 != 11 || t%10 == 1 && t%100 != 11 {
			return "one"
		}
		return "other"
	case "mk":
		if v == 0 && i%10 == 1 && i%100 != 11 || f%10 == 1 && f%100 != 11 {
			return "one"
		}
		return "other"
	case "lt":
		teen := i%100 >= 11 && i%100 <= 19
		switch {
		case f != 0:
			return "many"
		case i%10 == 1 && !teen:
			return "one"
		case i%10 >= 2 && !teen:
			return "few"
		}
		return "other"
	}
	return formName(plural.Cardinal.MatchPlural(tag, i, v, w, f, t))
}
