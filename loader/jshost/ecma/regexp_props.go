package ecma

import (
	"slices"
	"unicode"
)

// span is a range of code points, lo..hi inclusive.
type span struct{ lo, hi rune }

// set is a sorted list of disjoint, non-adjacent spans.
type set []span

// fromTables is the union of Go's tables.
func fromTables(ts ...*unicode.RangeTable) set {
	var s set
	for _, t := range ts {
		for _, r := range t.R16 {
			s = addStrided(s, rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			s = addStrided(s, rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	return normalize(s)
}

func addStrided(s set, lo, hi, stride rune) set {
	if stride == 1 {
		return append(s, span{lo, hi})
	}
	for c := lo; c <= hi; c += stride {
		s = append(s, span{c, c})
	}
	return s
}

// normalize sorts the spans and merges overlapping and adjacent ones.
func normalize(s set) set {
	slices.SortFunc(s, func(a, b span) int { return int(a.lo - b.lo) })
	out := s[:0]
	for _, p := range s {
		if n := len(out); n > 0 && p.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, p.hi)
			continue
		}
		out = append(out, p)
	}
	return out
}

func union(a, b set) set { return normalize(append(slices.Clone(a), b...)) }

// complement is every code point (0..U+10FFFF) not in s.
func complement(s set) set {
	var out set
	next := rune(0)
	for _, p := range s {
		if p.lo > next {
			out = append(out, span{next, p.lo - 1})
		}
		next = p.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, span{next, unicode.MaxRune})
	}
	return out
}

func minus(a, b set) set { return intersect(a, complement(b)) }

func intersect(a, b set) set {
	var out set
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, span{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// categoryNames are General_Category's long names (Unicode's
// PropertyValueAliases.txt) by their short ones; Go names them short.
var categoryNames = map[string]string{
	"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Unassigned": "Cn", "Private_Use": "Co", "Surrogate": "Cs",
	"Letter": "L", "Cased_Letter": "LC", "Lowercase_Letter": "Ll", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Titlecase_Letter": "Lt", "Uppercase_Letter": "Lu",
	"Mark": "M", "Combining_Mark": "M", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Nonspacing_Mark": "Mn",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Close_Punctuation": "Pe",
	"Final_Punctuation": "Pf", "Initial_Punctuation": "Pi", "Other_Punctuation": "Po", "Open_Punctuation": "Ps",
	"Symbol": "S", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Math_Symbol": "Sm", "Other_Symbol": "So",
	"Separator": "Z", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Space_Separator": "Zs",
}

// category is a General_Category value's set. The one-letter groups (and
// LC) are unions of their two-letter values, as Unicode defines them: Go's
// own C, for one, leaves out Cn.
func category(short string) (set, bool) {
	groups := map[string][]string{
		"C": {"Cc", "Cf", "Cn", "Co", "Cs"}, "L": {"Lu", "Ll", "Lt", "Lm", "Lo"}, "LC": {"Lu", "Ll", "Lt"},
		"M": {"Mn", "Mc", "Me"}, "N": {"Nd", "Nl", "No"}, "P": {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"},
		"S": {"Sm", "Sc", "Sk", "So"}, "Z": {"Zs", "Zl", "Zp"},
	}
	if parts, ok := groups[short]; ok {
		var ts []*unicode.RangeTable
		for _, p := range parts {
			ts = append(ts, unicode.Categories[p])
		}
		return fromTables(ts...), true
	}
	if len(short) != 2 {
		return nil, false
	}
	if t, ok := unicode.Categories[short]; ok {
		return fromTables(t), true
	}
	return nil, false
}

// binaryAliases are the short names of the binary properties.
var binaryAliases = map[string]string{
	"AHex": "ASCII_Hex_Digit", "Alpha": "Alphabetic", "Bidi_C": "Bidi_Control", "Dep": "Deprecated",
	"Dia": "Diacritic", "Ext": "Extender", "Hex": "Hex_Digit", "IDSB": "IDS_Binary_Operator",
	"IDST": "IDS_Trinary_Operator", "Ideo": "Ideographic", "Join_C": "Join_Control", "LOE": "Logical_Order_Exception",
	"NChar": "Noncharacter_Code_Point", "Pat_Syn": "Pattern_Syntax", "Pat_WS": "Pattern_White_Space",
	"QMark": "Quotation_Mark", "RI": "Regional_Indicator", "STerm": "Sentence_Terminal", "SD": "Soft_Dotted",
	"Term": "Terminal_Punctuation", "UIdeo": "Unified_Ideograph", "VS": "Variation_Selector", "WSpace": "White_Space",
	"space": "White_Space", "Lower": "Lowercase", "Upper": "Uppercase", "IDS": "ID_Start", "IDC": "ID_Continue",
	"Gr_Ext": "Grapheme_Extend", "EPres": "Emoji_Presentation", "EMod": "Emoji_Modifier", "EBase": "Emoji_Modifier_Base",
	"EComp": "Emoji_Component", "ExtPict": "Extended_Pictographic",
}

// unsupportedBinary are binary properties ECMAScript knows that Go has no
// table of (nor one they can be derived from exactly).
var unsupportedBinary = []string{
	"Bidi_Mirrored", "Bidi_M", "Case_Ignorable", "CI", "Cased", "Changes_When_Casefolded", "CWCF",
	"Changes_When_Casemapped", "CWCM", "Changes_When_Lowercased", "CWL", "Changes_When_NFKC_Casefolded", "CWKCF",
	"Changes_When_Titlecased", "CWT", "Changes_When_Uppercased", "CWU", "Default_Ignorable_Code_Point", "DI",
	"Grapheme_Base", "Gr_Base", "XID_Continue", "XIDC", "XID_Start", "XIDS",
}

// binary is a binary property's set: Go's unicode.Properties, the emoji
// tables, or one derived as Unicode's DerivedCoreProperties.txt says.
func binary(name string) (set, bool) {
	if long, ok := binaryAliases[name]; ok {
		name = long
	}
	cat := func(c string) set { s, _ := category(c); return s }
	prop := func(p string) set { return fromTables(unicode.Properties[p]) }
	switch name {
	case "Any":
		return set{{0, unicode.MaxRune}}, true
	case "ASCII":
		return set{{0, 0x7F}}, true
	case "Assigned":
		return complement(cat("Cn")), true
	case "Alphabetic":
		return union(cat("L"), union(cat("Nl"), prop("Other_Alphabetic"))), true
	case "Lowercase":
		return union(cat("Ll"), prop("Other_Lowercase")), true
	case "Uppercase":
		return union(cat("Lu"), prop("Other_Uppercase")), true
	case "Math":
		return union(cat("Sm"), prop("Other_Math")), true
	case "Grapheme_Extend":
		return union(cat("Me"), union(cat("Mn"), prop("Other_Grapheme_Extend"))), true
	case "ID_Start":
		s := union(cat("L"), union(cat("Nl"), prop("Other_ID_Start")))
		return minus(s, union(prop("Pattern_Syntax"), prop("Pattern_White_Space"))), true
	case "ID_Continue":
		s := union(cat("L"), union(cat("Nl"), prop("Other_ID_Start")))
		for _, c := range []string{"Mn", "Mc", "Nd", "Pc"} {
			s = union(s, cat(c))
		}
		s = union(s, prop("Other_ID_Continue"))
		return minus(s, union(prop("Pattern_Syntax"), prop("Pattern_White_Space"))), true
	}
	// The Other_* properties are Unicode's contributory properties, which
	// ECMAScript does not offer.
	if len(name) > 6 && name[:6] == "Other_" {
		return nil, false
	}
	if t, ok := unicode.Properties[name]; ok {
		return fromTables(t), true
	}
	if t, ok := emojiTables[name]; ok {
		return fromTables(t), true
	}
	return nil, false
}

// property is the set \p{name} matches (name is what stands between the
// braces), or an error saying why it cannot be matched.
func property(name string) (set, error) {
	key, value, hasValue := cut(name, '=')
	if !hasValue {
		if short, ok := categoryNames[name]; ok {
			name = short
		}
		if s, ok := category(name); ok {
			return s, nil
		}
		if s, ok := binary(name); ok {
			return s, nil
		}
		if slices.Contains(unsupportedBinary, name) {
			return nil, patternErrorf("beeuni cannot match \\p{%s}: Go's unicode tables have no %s (the General_Category values, Script, and the binary properties of Go's unicode.Properties and of emoji it can)", name, name)
		}
		return nil, patternError("Invalid property name")
	}
	switch key {
	case "General_Category", "gc":
		if short, ok := categoryNames[value]; ok {
			value = short
		}
		if s, ok := category(value); ok {
			return s, nil
		}
	case "Script", "sc":
		if long, ok := scriptCodes[value]; ok {
			value = long
		}
		if t, ok := unicode.Scripts[value]; ok {
			return fromTables(t), nil
		}
		if value == "Unknown" || value == "Zzzz" {
			return nil, patternErrorf("beeuni cannot match \\p{%s}: Go's unicode tables have no Unknown script", name)
		}
		if len(value) > 0 {
			return nil, patternErrorf("beeuni cannot match \\p{%s}: Go's unicode tables (Unicode %s) have no script %s; the Script names Go has: unicode.Scripts", name, unicode.Version, value)
		}
	case "Script_Extensions", "scx":
		return nil, patternErrorf("beeuni cannot match \\p{%s}: Go's unicode tables have no Script_Extensions; \\p{Script=%s} (without the extensions) may do", name, value)
	}
	return nil, patternError("Invalid property name")
}

func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
