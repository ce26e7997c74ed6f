package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one thing wrong with a call's arguments: an entry of the
// `invalid_arguments` list and one line of the message.
type Problem struct {
	Path    string `json:"path"`    // JSON Pointer of the instance location; "" for the arguments object
	Keyword string `json:"keyword"` // the schema keyword, "duplicate_key" or "parseArgs"
	Message string `json:"message"`
	nested  string // anyOf/oneOf: the first branch's deepest problem, shown as "  - …"
}

// ParseArgsProblem is the problem a module's parseArgs gives (§1.5): its
// thrown message, or the wrong-return text.
func ParseArgsProblem(message string) Problem {
	return Problem{Keyword: "parseArgs", Message: message}
}

// Caps of the message (§1.6).
const (
	maxLines     = 10
	maxMessage   = 4000
	maxSignature = 600
	maxLine      = 1000 // one problem line; keeps one huge line from crowding out the rest
)

// Message is the text the model reads when a call's arguments are
// rejected (§1.6): a header, at most 10 problem lines sorted by location
// then keyword, then "- … and <k> more", then "<tool> takes: <signature>";
// at most 4,000 bytes. signature is Validator.Signature (or
// Signature(parameters) when there is no Validator).
func Message(tool, signature string, problems []Problem) string {
	problems = slices.Clone(problems)
	sortProblems(problems)
	head := fmt.Sprintf("invalid arguments for tool %s: %s; fix them and call again.\n", tool, plural(len(problems), "problem"))
	tail := tool + " takes: " + signature
	lines := make([]string, 0, min(len(problems), maxLines))
	for i, p := range problems {
		if i == maxLines {
			break
		}
		l := cutBytes(fmt.Sprintf("- at %s: %s", where(p.Path), p.Message), maxLine)
		if p.nested != "" {
			l += "\n" + cutBytes("  - "+p.nested, maxLine)
		}
		lines = append(lines, l)
	}
	for {
		more := len(problems) - len(lines)
		var b strings.Builder
		b.WriteString(head)
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		if more > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", more)
		}
		b.WriteString(tail)
		if b.Len() <= maxMessage || len(lines) == 0 {
			return cutBytes(b.String(), maxMessage)
		}
		lines = lines[:len(lines)-1]
	}
}

// where is how a problem names its place: (arguments), or the quoted pointer.
func where(ptr string) string {
	if ptr == "" {
		return "(arguments)"
	}
	return quoteJSON(ptr)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// cutBytes cuts s to at most n bytes on a rune boundary, ending with "…".
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// sortProblems orders problems by instance location (array indexes as
// numbers), then keyword; the order is the message's.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := comparePointers(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Keyword, b.Keyword)
	})
}

func comparePointers(a, b string) int {
	if a == b {
		return 0
	}
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		if at[i] == bt[i] {
			continue
		}
		an, aerr := strconv.Atoi(at[i])
		bn, berr := strconv.Atoi(bt[i])
		if aerr == nil && berr == nil {
			if an < bn {
				return -1
			}
			return 1
		}
		return strings.Compare(at[i], bt[i])
	}
	return len(at) - len(bt)
}

// Signature is the one-line summary of the top-level properties, in schema
// order (§1.6): {"id": string (required), "include_items": boolean}; cut
// at 600 characters. It reads the raw parameters, so it works for schemas
// that do not compile too.
func Signature(parameters []byte) string {
	root, _, err := parseTree(parameters, false)
	if err != nil || !root.isObject() {
		return "{}"
	}
	required := map[string]bool{}
	for _, r := range root.get("required").strs() {
		required[r] = true
	}
	props := root.get("properties")
	var b strings.Builder
	b.WriteByte('{')
	if props.isObject() {
		for i, m := range props.members {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteJSON(m.key))
			b.WriteString(": ")
			b.WriteString(shape(root, m.val, 0))
			if required[m.key] {
				b.WriteString(" (required)")
			}
		}
	}
	b.WriteByte('}')
	s := b.String()
	if r := []rune(s); len(r) > maxSignature {
		s = string(r[:maxSignature-1]) + "…"
	}
	return s
}

// shape is how the signature shows one property's schema.
func shape(root, n *node, depth int) string {
	if depth > 4 || !n.isObject() {
		return "any"
	}
	if r := n.get("$ref"); r != nil && r.kind == kString {
		if t, ok := resolveLocal(root, r.str); ok && t != n {
			return shape(root, t, depth+1)
		}
	}
	if c := n.get("const"); c != nil {
		return scalarText(c)
	}
	if e := n.get("enum"); e != nil && e.kind == kArray && len(e.items) > 0 {
		vals := make([]string, 0, enumCap+1)
		for i, it := range e.items {
			if i == enumCap {
				vals = append(vals, "…")
				break
			}
			vals = append(vals, scalarText(it))
		}
		return strings.Join(vals, "|")
	}
	ts := n.types()
	if len(ts) == 0 {
		for _, kw := range []string{"anyOf", "oneOf"} {
			if alts := n.get(kw); alts != nil && alts.kind == kArray && len(alts.items) > 0 {
				parts := make([]string, len(alts.items))
				for i, a := range alts.items {
					parts[i] = shape(root, a, depth+1)
				}
				return strings.Join(parts, "|")
			}
		}
		return "any"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t
		if t == "array" {
			if it := n.get("items"); it.isObject() {
				parts[i] = "array of " + shape(root, it, depth+1)
			}
		}
	}
	return strings.Join(parts, "|")
}

// scalarText shows a value as JSON (objects and arrays as "value").
func scalarText(n *node) string {
	if n.kind == kObject || n.kind == kArray {
		return "value"
	}
	if n.kind == kString {
		return quoteJSON(n.str)
	}
	return n.raw
}
