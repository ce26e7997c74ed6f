package schema

import "fmt"

// openAIMaxTools is the Chat Completions cap: "A max of 128 functions are
// supported" (§3.4).
const openAIMaxTools = 128

// openai renders for openai and openai-strict (§3.2, §3.4).
func (r *run) openai(tools []Tool, strict, responses bool) *node {
	if len(tools) > openAIMaxTools {
		r.add("OA-MAX-TOOLS", SeverityError, "", "%d tools: OpenAI accepts at most %d functions in one request; hide some from this agent", len(tools), openAIMaxTools)
	}
	out := newArray()
	anyStrict := false
	for _, t := range tools {
		r.tool = t.Name
		r.checkName(t.Name)
		root := r.parseParameters(t)
		r.checkRoot(root, "ALL-ROOT")
		r.checkArrayItems(root)
		params, isStrict := root, false
		if strict {
			params, isStrict = r.strictOpenAI(root)
			anyStrict = anyStrict || isStrict
		} else if _, ok := (&run{provider: OpenAIStrict}).strictOpenAIQuiet(root); ok {
			r.add("OA-STRICT-HINT", SeverityInfo, "", "this schema renders strict without any change in meaning: \"We recommend always enabling strict mode\" (render it with --provider openai-strict)")
		}
		var fn []*member
		if responses {
			fn = []*member{kv("type", newString("function"))}
		}
		fn = append(fn, kv("name", newString(t.Name)), kv("description", newString(t.Description)), kv("parameters", params))
		switch {
		case responses:
			// Responses' FunctionToolParam.strict is documented "Default true".
			fn = append(fn, kv("strict", newBool(isStrict)))
			out.items = append(out.items, newObject(fn...))
		default:
			if strict {
				fn = append(fn, kv("strict", newBool(isStrict)))
			}
			out.items = append(out.items, newObject(kv("type", newString("function")), kv("function", newObject(fn...))))
		}
	}
	r.tool = ""
	if anyStrict {
		r.add("OS-PARALLEL", SeverityInfo, "", "\"Structured Outputs is not compatible with parallel function calls\": set parallel_tool_calls: false in the request if strict calls must match the schema")
	}
	return out
}

// strictOpenAIQuiet is strictOpenAI without its findings: ok when the tool
// would render strict with no warning.
func (r *run) strictOpenAIQuiet(root *node) (*node, bool) {
	out, ok := r.strictOpenAI(root)
	for _, f := range r.findings {
		if f.Severity != SeverityInfo {
			return out, false
		}
	}
	return out, ok
}

// strictOpenAI rewrites a copy of root for strict mode (§3.4). When the
// rewrite would change the schema's meaning the tool goes strict: false
// with the original schema and a warning per reason.
func (r *run) strictOpenAI(root *node) (*node, bool) {
	s := &strictPass{run: &run{provider: r.provider, tool: r.tool}, root: root, sentAs: "with strict: false"}
	out := root.clone()
	if out.has("anyOf") || out.has("oneOf") || out.has("allOf") {
		s.fallback("OS-ROOT-ANYOF", out.ptr, "the root uses anyOf, oneOf or allOf: strict mode needs a plain object root")
	}
	s.node(out, true)
	if len(s.reasons) == 0 {
		s.limits(out)
	}
	if len(s.reasons) > 0 {
		r.findings = append(r.findings, s.reasons...)
		return root, false
	}
	r.findings = append(r.findings, s.run.findings...)
	return out, true
}

// strictPass is one strict rewrite: findings go to run while it may still
// succeed, fallback reasons to reasons.
type strictPass struct {
	run     *run
	root    *node
	reasons []Finding
	sentAs  string // how the tool goes when the rewrite falls back
}

func (s *strictPass) fallback(rule, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...) + ", so the tool is sent " + s.sentAs
	s.reasons = append(s.reasons, Finding{Provider: string(s.run.provider), Tool: s.run.tool, Path: path,
		Severity: SeverityWarning, Rule: rule, Message: msg, Source: ruleSource(rule, s.run.provider)})
}

// strictFormats are the string formats strict mode accepts [S1].
var strictFormats = map[string]bool{"date-time": true, "time": true, "date": true, "duration": true,
	"email": true, "hostname": true, "ipv4": true, "ipv6": true, "uuid": true}

var strictDrop = []string{"minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems",
	"contains", "minContains", "maxContains", "prefixItems", "unevaluatedItems"}

// node rewrites n bottom-up.
func (s *strictPass) node(n *node, isRoot bool) {
	if !n.isObject() {
		return
	}
	eachSubschema(n, func(_ string, sub *node) { s.node(sub, false) })

	if n.has("oneOf") {
		if n.has("anyOf") {
			s.fallback("OS-ONEOF", n.ptr, "oneOf next to anyOf cannot become anyOf")
		} else {
			n.rename("oneOf", "anyOf")
			s.run.add("OS-ONEOF", SeverityInfo, n.ptr, "oneOf sent as anyOf: the model is not told that only one may match (beeuni validates the original when it validates)")
		}
	}
	if all := n.get("allOf"); all != nil {
		s.mergeAllOf(n, all)
	}
	for _, kw := range []string{"not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies"} {
		if n.has(kw) {
			s.fallback("OS-COMPOSITION", n.ptr, "%s is not supported in strict mode", kw)
		}
	}
	if i := n.index("$ref"); i >= 0 && len(n.members) > 1 {
		if n.has("anyOf") {
			s.fallback("OS-REF-SIBLINGS", n.ptr, "$ref next to anyOf cannot be wrapped")
		} else {
			ref := n.members[i].val
			n.members[i] = kv("anyOf", newArray(newObject(kv("$ref", ref))))
		}
	}
	for _, kw := range []string{"$schema", "$id", "$comment", "title", "examples", "default"} {
		n.del(kw)
	}
	s.drop(n)
	if isObjectSchema(n) {
		s.object(n)
	}
}

// mergeAllOf merges a one-entry allOf into n (openai-agents); anything
// else cannot be expressed in strict mode.
func (s *strictPass) mergeAllOf(n, all *node) {
	if all.kind != kArray || len(all.items) != 1 || !all.items[0].isObject() {
		s.fallback("OS-ALLOF", n.ptr, "allOf with %d entries cannot be merged", len(all.items))
		return
	}
	entry := all.items[0]
	for _, m := range entry.members {
		if n.has(m.key) {
			s.fallback("OS-ALLOF", n.ptr, "allOf's %s conflicts with the schema's own", m.key)
			return
		}
	}
	i := n.index("allOf")
	n.del("allOf")
	n.insertAt(i, entry.members...)
}

// drop moves the keywords strict mode does not take into the description.
func (s *strictPass) drop(n *node) {
	var notes, names []string
	for _, kw := range strictDrop {
		if v := n.del(kw); v != nil {
			notes = append(notes, kw+"="+noteValue(v))
			names = append(names, kw)
		}
	}
	if f := n.get("format"); f != nil && !(f.kind == kString && strictFormats[f.str]) {
		n.del("format")
		notes = append(notes, "format="+noteValue(f))
		names = append(names, "format")
	}
	if len(notes) == 0 {
		return
	}
	describe(n, notes)
	s.run.add("OS-DROP", SeverityWarning, n.ptr, "%s", dropMessage(names, "constraint not sent to the model"))
}

// object closes an object schema and makes every property required,
// optional ones nullable (§3.4 OS-OPEN-MAP … OS-NULLABLE).
func (s *strictPass) object(n *node) {
	if ap := n.get("additionalProperties"); ap != nil && !ap.isFalse() {
		s.fallback("OS-OPEN-MAP", n.ptr, "additionalProperties is not false: closing the object would change what it accepts")
	}
	for _, kw := range []string{"patternProperties", "propertyNames"} {
		if n.has(kw) {
			s.fallback("OS-OPEN-MAP", n.ptr, "%s describes open keys: closing the object would change what it accepts", kw)
		}
	}
	if up := n.get("unevaluatedProperties"); up != nil && !up.isFalse() {
		s.fallback("OS-OPEN-MAP", n.ptr, "unevaluatedProperties is not false: closing the object would change what it accepts")
	}
	props := n.get("properties")
	if props == nil && !n.has("additionalProperties") {
		s.fallback("OS-OPEN-OBJECT", n.ptr, "an object with no properties accepts any keys; closed, it would accept only {}")
		return
	}
	required := map[string]bool{}
	for _, k := range n.get("required").strs() {
		required[k] = true
	}
	names := propertyNames(n)
	all := newArray()
	for _, k := range names {
		all.items = append(all.items, newString(k))
	}
	n.set("required", all)
	if !n.has("additionalProperties") {
		n.set("additionalProperties", newBool(false))
	}
	if props.isObject() {
		for _, m := range props.members {
			if !required[m.key] {
				nullable(m.val)
			}
		}
	}
}

// nullable lets n accept null too (OS-NULLABLE): a type list gets "null",
// an enum gets null; what has no type to extend is wrapped in anyOf.
func nullable(n *node) {
	if !n.isObject() {
		return // a boolean schema: true already accepts null
	}
	ts := n.types()
	for _, t := range ts {
		if t == "null" {
			return
		}
	}
	wrap := n.has("anyOf") || n.has("const") || n.has("$ref") || n.has("allOf") || (ts == nil && !n.has("enum"))
	if wrap {
		inner := newObject()
		var desc *member
		for _, m := range n.members {
			if m.key == "description" {
				desc = m
				continue
			}
			inner.members = append(inner.members, m)
		}
		if n.has("anyOf") && len(n.members) == 1+boolInt(desc != nil) {
			n.get("anyOf").items = append(n.get("anyOf").items, newObject(kv("type", newString("null"))))
			return
		}
		n.members = []*member{kv("anyOf", newArray(inner, newObject(kv("type", newString("null")))))}
		if desc != nil {
			n.members = append(n.members, desc)
		}
		return
	}
	if ts != nil {
		list := newArray()
		for _, t := range ts {
			list.items = append(list.items, newString(t))
		}
		list.items = append(list.items, newString("null"))
		n.set("type", list)
	}
	if e := n.get("enum"); e != nil && e.kind == kArray {
		for _, it := range e.items {
			if it.kind == kNull {
				return
			}
		}
		e.items = append(e.items, newNull())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Strict-mode limits on the current page [S1].
const (
	limitProperties  = 5000
	limitDepth       = 10
	limitStringChars = 120000
	limitEnumValues  = 1000
	limitBigEnum     = 250
	limitBigEnumText = 15000
)

// limits counts the rewritten schema against the strict-mode limits.
func (s *strictPass) limits(root *node) {
	var props, maxDepth, chars, enums int
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if !n.isObject() {
			return
		}
		if isObjectSchema(n) {
			depth++
			maxDepth = max(maxDepth, depth)
		}
		if p := n.get("properties"); p.isObject() {
			props += len(p.members)
			for _, m := range p.members {
				chars += len([]rune(m.key))
			}
		}
		for _, kw := range []string{"$defs", "definitions"} {
			if d := n.get(kw); d.isObject() {
				for _, m := range d.members {
					chars += len([]rune(m.key))
				}
			}
		}
		if e := n.get("enum"); e != nil && e.kind == kArray {
			enums += len(e.items)
			text := 0
			for _, it := range e.items {
				text += len([]rune(noteValue(it)))
			}
			chars += text
			if len(e.items) > limitBigEnum && text > limitBigEnumText {
				s.fallback("OS-LIMITS", n.ptr, "an enum of %d values has %d characters in all, over strict mode's limit of %d for enums of more than %d values", len(e.items), text, limitBigEnumText, limitBigEnum)
			}
		}
		if c := n.get("const"); c != nil {
			chars += len([]rune(noteValue(c)))
		}
		eachSubschema(n, func(_ string, sub *node) { walk(sub, depth) })
	}
	walk(root, 0)
	check := func(what string, count, limit int) {
		if count > limit {
			s.fallback("OS-LIMITS", "", "%s: %d, over strict mode's limit of %d", what, count, limit)
		}
	}
	check("object properties in all", props, limitProperties)
	check("levels of object nesting", maxDepth, limitDepth)
	check("characters of property names, definition names, enum and const values", chars, limitStringChars)
	check("enum values in all", enums, limitEnumValues)
}
