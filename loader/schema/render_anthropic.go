package schema

// Request limits of Anthropic strict tool use [S8].
const (
	anthropicStrictTools    = 20
	anthropicOptionalParams = 24
	anthropicUnionParams    = 16
)

// anthropic renders for anthropic and anthropic-strict (§3.2, §3.5).
func (r *run) anthropic(tools []Tool, strict bool) *node {
	out := newArray()
	var strictTools, optional, unions int
	for _, t := range tools {
		r.tool = t.Name
		r.checkName(t.Name)
		root := r.parseParameters(t)
		r.checkRoot(root, "AN-ROOT-TYPE")
		for _, kw := range []string{"oneOf", "allOf", "anyOf"} {
			if root.has(kw) {
				r.add("AN-ROOT-COMBINATOR", SeverityError, "", "input_schema does not support oneOf, allOf, or anyOf at the top level (%s here): Anthropic fails the whole request", kw)
				break
			}
		}
		params, isStrict := root, false
		if strict {
			params, isStrict = r.strictAnthropic(root)
		}
		if isStrict {
			o, u := countParams(params)
			switch {
			case strictTools+1 > anthropicStrictTools:
				r.add("AS-LIMITS", SeverityWarning, "", "more than %d strict tools in one request: this one is sent without strict", anthropicStrictTools)
				params, isStrict = root, false
			case optional+o > anthropicOptionalParams:
				r.add("AS-LIMITS", SeverityWarning, "", "optional parameters across strict tools would reach %d, over the limit of %d: this tool is sent without strict", optional+o, anthropicOptionalParams)
				params, isStrict = root, false
			case unions+u > anthropicUnionParams:
				r.add("AS-LIMITS", SeverityWarning, "", "parameters with union types across strict tools would reach %d, over the limit of %d: this tool is sent without strict", unions+u, anthropicUnionParams)
				params, isStrict = root, false
			default:
				strictTools, optional, unions = strictTools+1, optional+o, unions+u
			}
		}
		tool := newObject(kv("name", newString(t.Name)), kv("description", newString(t.Description)), kv("input_schema", params))
		if isStrict {
			tool.members = append(tool.members, kv("strict", newBool(true)))
		}
		out.items = append(out.items, tool)
	}
	r.tool = ""
	return out
}

// countParams counts the optional properties and the properties with a
// union type (anyOf or a type list), at every depth.
func countParams(n *node) (optional, unions int) {
	if !n.isObject() {
		return 0, 0
	}
	if props := n.get("properties"); props.isObject() {
		required := map[string]bool{}
		for _, k := range n.get("required").strs() {
			required[k] = true
		}
		for _, m := range props.members {
			if !required[m.key] {
				optional++
			}
			if m.val.has("anyOf") || len(m.val.types()) > 1 {
				unions++
			}
		}
	}
	eachSubschema(n, func(_ string, sub *node) {
		o, u := countParams(sub)
		optional, unions = optional+o, unions+u
	})
	return optional, unions
}

// anthropicFormats are the string formats strict tool use accepts [S8].
var anthropicFormats = map[string]bool{"date-time": true, "time": true, "date": true, "duration": true,
	"email": true, "hostname": true, "uri": true, "ipv4": true, "ipv6": true, "uuid": true}

// anthropicDrop are the constraints strict tool use does not support:
// numerical, string length, arrays beyond minItems, object sizes [S8].
var anthropicDrop = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
	"minProperties", "maxProperties"}

// anthropicUnsupported are keywords strict tool use does not list: their
// meaning cannot be kept, so the tool goes without strict.
var anthropicUnsupported = []string{"oneOf", "not", "if", "then", "else", "dependentRequired",
	"dependentSchemas", "dependencies", "prefixItems", "unevaluatedItems", "additionalItems"}

// strictAnthropic rewrites a copy of root for strict tool use (§3.5);
// when meaning would change, the tool is sent without strict, unchanged.
func (r *run) strictAnthropic(root *node) (*node, bool) {
	s := &strictPass{run: &run{provider: r.provider, tool: r.tool}, root: root, sentAs: "without strict"}
	out := root.clone()
	if recursive(out) {
		s.fallback("AS-RECURSIVE", "", "the schema is recursive ($ref back to itself): strict tool use does not support recursive schemas")
	}
	s.anthropicNode(out)
	if len(s.reasons) > 0 {
		r.findings = append(r.findings, s.reasons...)
		return root, false
	}
	r.findings = append(r.findings, s.run.findings...)
	return out, true
}

func (s *strictPass) anthropicNode(n *node) {
	if !n.isObject() {
		return
	}
	eachSubschema(n, func(_ string, sub *node) { s.anthropicNode(sub) })
	for _, kw := range anthropicUnsupported {
		if n.has(kw) {
			s.fallback("AS-UNSUPPORTED", n.ptr, "%s is not supported by strict tool use", kw)
		}
	}
	if all := n.get("allOf"); all != nil && all.kind == kArray {
		for _, it := range all.items {
			if it.has("$ref") {
				s.fallback("AS-UNSUPPORTED", n.ptr, "allOf with $ref is not supported by strict tool use")
				break
			}
		}
	}
	if e := n.get("enum"); e != nil && e.kind == kArray {
		for _, it := range e.items {
			if it.kind == kObject || it.kind == kArray {
				s.fallback("AS-ENUM", n.ptr, "enum holds objects or arrays: strict tool use takes only strings, numbers, booleans and nulls")
				break
			}
		}
	}
	var notes, names []string
	for _, kw := range anthropicDrop {
		if v := n.del(kw); v != nil {
			notes = append(notes, kw+"="+noteValue(v))
			names = append(names, kw)
		}
	}
	if f := n.get("format"); f != nil && !(f.kind == kString && anthropicFormats[f.str]) {
		n.del("format")
		notes = append(notes, "format="+noteValue(f))
		names = append(names, "format")
	}
	if len(notes) > 0 {
		describe(n, notes)
		s.run.add("AS-DROP", SeverityWarning, n.ptr, "%s", dropMessage(names, "strict tool use does not support it"))
	}
	if mi := n.get("minItems"); mi != nil && mi.raw != "0" && mi.raw != "1" {
		n.del("minItems")
		describe(n, []string{"minItems=" + mi.raw})
		s.run.add("AS-MIN-ITEMS", SeverityWarning, n.ptr, "minItems %s moved to the description: strict tool use supports only 0 and 1", mi.raw)
	}
	if isObjectSchema(n) {
		s.closeAnthropic(n)
	}
}

// closeAnthropic is OS-ADDPROPS with the open-object fallbacks; strict
// tool use keeps optional properties, so required is left alone.
func (s *strictPass) closeAnthropic(n *node) {
	if ap := n.get("additionalProperties"); ap != nil && !ap.isFalse() {
		s.fallback("OS-OPEN-MAP", n.ptr, "additionalProperties must be false in strict tool use")
	}
	for _, kw := range []string{"patternProperties", "propertyNames", "unevaluatedProperties"} {
		if n.has(kw) {
			s.fallback("OS-OPEN-MAP", n.ptr, "%s describes open keys: closing the object would change what it accepts", kw)
		}
	}
	if !n.has("properties") && !n.has("additionalProperties") {
		s.fallback("OS-OPEN-OBJECT", n.ptr, "an object with no properties accepts any keys; closed, it would accept only {}")
		return
	}
	if !n.has("additionalProperties") {
		n.set("additionalProperties", newBool(false))
	}
}
