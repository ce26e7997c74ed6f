package schema

import (
	"slices"
	"strings"
)

// gemini renders for gemini (§3.2, §3.6): Gemini's OpenAPI-subset Schema
// in `parameters`, or JSON Schema in `parametersJsonSchema`.
func (r *run) gemini(tools []Tool, jsonMode bool) *node {
	decls := newArray()
	for _, t := range tools {
		r.tool = t.Name
		r.checkName(t.Name)
		root := r.parseParameters(t)
		r.checkRoot(root, "ALL-ROOT")
		decl := newObject(kv("name", newString(t.Name)), kv("description", newString(t.Description)))
		g := &gem{run: r, orig: root, budget: inlineBudget}
		if jsonMode {
			decl.members = append(decl.members, kv("parametersJsonSchema", g.jsonSchema(root.clone())))
		} else if params := g.openAPI(root.clone()); params != nil {
			decl.members = append(decl.members, kv("parameters", params))
		}
		decls.items = append(decls.items, decl)
	}
	r.tool = ""
	if len(decls.items) == 0 {
		return newArray()
	}
	return newArray(newObject(kv("functionDeclarations", decls)))
}

// inlineBudget caps the nodes $ref inlining may copy for one tool, so a
// schema whose definitions reference each other many times cannot blow up.
const inlineBudget = 100000

type gem struct {
	run    *run
	orig   *node // the parsed parameters: $ref targets resolve here
	budget int
}

// geminiFields are the fields of Gemini's Schema [S10]; every other key
// is removed (GM-FIELDS).
var geminiFields = set("type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
	"example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum")

// geminiJSONFields is the JSON Schema subset Google documents for
// responseJsonSchema [S12], taken for parametersJsonSchema too.
var geminiJSONFields = set("$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description",
	"enum", "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf",
	"properties", "additionalProperties", "required", "propertyOrdering")

// annotations are keywords whose removal changes nothing a value must be.
var annotations = set("$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$defs", "definitions",
	"title", "description", "examples", "example", "default", "readOnly", "writeOnly", "deprecated",
	"contentMediaType", "contentEncoding", "propertyOrdering", "nullable")

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// openAPI rewrites n (a copy) into Gemini's Schema; nil means leave
// `parameters` out (GM-EMPTY-OBJECT at the root).
func (g *gem) openAPI(n *node) *node {
	g.inline(n, []*node{g.orig})
	g.node(n, true)
	if props := n.get("properties"); !props.isObject() || len(props.members) == 0 {
		g.run.add("GM-EMPTY-OBJECT", SeverityInfo, "", "no properties: parameters is left out (Gemini rejects an OBJECT with empty properties)")
		return nil
	}
	return n
}

// inline replaces every local $ref with a copy of its target (GM-REF).
// The schema's own subschemas go first, so the merged copy (already
// inlined) is not walked again.
func (g *gem) inline(n *node, stack []*node) {
	if !n.isObject() {
		return
	}
	eachSubschema(n, func(kw string, sub *node) {
		if kw != "$defs" && kw != "definitions" {
			g.inline(sub, stack)
		}
	})
	i := n.index("$ref")
	if i < 0 {
		return
	}
	ref := n.members[i].val
	n.members = slices.Delete(n.members, i, i+1)
	target, ok := (*node)(nil), false
	if ref.kind == kString {
		target, ok = resolveLocal(g.orig, ref.str)
	}
	switch {
	case !ok:
		g.run.add("GM-REF", SeverityWarning, n.ptr, "$ref %s is not a local reference that can be inlined: left out", noteValue(ref))
		return
	case slices.Contains(stack, target):
		g.run.add("GM-REF", SeverityError, n.ptr, "recursive $ref %s cannot be inlined into Gemini's Schema: render with --gemini-schema json (parametersJsonSchema takes $ref)", noteValue(ref))
		return
	}
	if g.budget -= target.size(); g.budget < 0 {
		g.run.add("GM-REF", SeverityError, n.ptr, "inlining $ref %s makes the schema too large: render with --gemini-schema json", noteValue(ref))
		return
	}
	c := target.clone()
	g.inline(c, append(stack, target))
	var add []*member
	for _, m := range c.members {
		if !n.has(m.key) {
			add = append(add, m)
		}
	}
	n.insertAt(i, add...)
}

// node rewrites one schema bottom-up into Gemini's Schema.
func (g *gem) node(n *node, isRoot bool) {
	if n.kind == kBool {
		if n.isFalse() {
			g.run.add("GM-FIELDS", SeverityWarning, n.ptr, "a false schema (nothing allowed) has no Gemini form: sent as {}")
		}
		*n = node{kind: kObject, ptr: n.ptr}
		return
	}
	if !n.isObject() {
		return
	}
	for _, kw := range []string{"properties", "items", "anyOf", "oneOf", "allOf"} {
		v := n.get(kw)
		switch {
		case v == nil:
		case kw == "properties" && v.kind == kObject:
			for _, m := range v.members {
				g.node(m.val, false)
			}
		case kw != "properties" && v.kind == kArray && kw != "items":
			for _, it := range v.items {
				g.node(it, false)
			}
		case kw == "items" && (v.kind == kObject || v.kind == kBool):
			g.node(v, false)
		}
	}
	g.typeArray(n)
	g.constToEnum(n)
	if n.has("oneOf") {
		if n.has("anyOf") {
			n.del("oneOf")
			g.run.add("GM-ONEOF", SeverityWarning, n.ptr, "oneOf next to anyOf removed: Gemini's Schema has no oneOf")
		} else {
			n.rename("oneOf", "anyOf")
			g.run.add("GM-ONEOF", SeverityInfo, n.ptr, "oneOf sent as anyOf: the model is not told that only one may match")
		}
	}
	g.allOf(n)
	g.anyOfNull(n)
	g.enum(n)
	g.format(n)
	g.anyOfSiblings(n)
	if !isRoot && hasType(n, "object") {
		if props := n.get("properties"); !props.isObject() || len(props.members) == 0 {
			n.del("type")
			n.del("properties")
			n.del("required")
			g.run.add("GM-EMPTY-OBJECT", SeverityWarning, n.ptr, "an object with no properties is sent without type (Gemini rejects an OBJECT with empty properties): any value is accepted")
		}
	}
	if hasType(n, "array") {
		if it := n.get("items"); it == nil || it.kind == kArray {
			n.set("items", newObject(kv("type", newString("string"))))
			g.run.add("GM-ARRAY-ITEMS", SeverityWarning, n.ptr, "an array without one items schema is sent with items {\"type\": \"string\"}")
		}
	}
	g.fields(n, geminiFields)
}

// typeArray is GM-TYPE-ARRAY: Gemini's type is one name, null is nullable.
func (g *gem) typeArray(n *node) {
	t := n.get("type")
	if t == nil || t.kind != kArray {
		return
	}
	var types []string
	hasNull := false
	for _, s := range t.strs() {
		if s == "null" {
			hasNull = true
		} else {
			types = append(types, s)
		}
	}
	i := n.index("type")
	switch {
	case len(types) == 0:
		n.members[i].val = newString("null")
	case len(types) == 1:
		n.members[i].val = newString(types[0])
	case n.has("anyOf"):
		n.del("type")
		g.run.add("GM-TYPE-ARRAY", SeverityWarning, n.ptr, "a type list next to anyOf is left out: Gemini's type is one name")
	default:
		alts := newArray()
		for _, s := range types {
			alts.items = append(alts.items, newObject(kv("type", newString(s))))
		}
		n.members[i] = kv("anyOf", alts)
	}
	if hasNull && len(types) > 0 {
		setNullable(n)
	}
}

func setNullable(n *node) {
	if n.has("nullable") {
		n.set("nullable", newBool(true))
		return
	}
	if i := n.index("type"); i >= 0 {
		n.insertAt(i+1, kv("nullable", newBool(true)))
		return
	}
	n.members = append(n.members, kv("nullable", newBool(true)))
}

// constToEnum is GM-CONST: const v becomes enum [v], with a type when
// there is none.
func (g *gem) constToEnum(n *node) {
	i := n.index("const")
	if i < 0 {
		return
	}
	v := n.members[i].val
	n.members[i] = kv("enum", newArray(v))
	if n.has("type") {
		return
	}
	t := ""
	switch v.kind {
	case kString:
		t = "string"
	case kBool:
		t = "boolean"
	case kNumber:
		t = "number"
		if !strings.ContainsAny(v.raw, ".eE") {
			t = "integer"
		}
	}
	if t != "" {
		n.insertAt(i, kv("type", newString(t)))
	}
}

// allOf is GM-ALLOF: one entry is merged; more are removed.
func (g *gem) allOf(n *node) {
	all := n.get("allOf")
	if all == nil {
		return
	}
	i := n.index("allOf")
	n.del("allOf")
	if all.kind != kArray || len(all.items) != 1 || !all.items[0].isObject() {
		g.run.add("GM-ALLOF", SeverityWarning, n.ptr, "allOf with %d entries removed: Gemini's Schema has no allOf", len(all.items))
		return
	}
	var add []*member
	var lost []string
	for _, m := range all.items[0].members {
		if n.has(m.key) {
			lost = append(lost, m.key)
			continue
		}
		add = append(add, m)
	}
	n.insertAt(i, add...)
	if len(lost) > 0 {
		g.run.add("GM-ALLOF", SeverityWarning, n.ptr, "allOf merged; its %s lost to the schema's own", strings.Join(lost, ", "))
	}
}

// anyOfNull is GM-ANYOF-NULL: a {"type":"null"} branch becomes nullable,
// and a single remaining branch is hoisted.
func (g *gem) anyOfNull(n *node) {
	alts := n.get("anyOf")
	if alts == nil || alts.kind != kArray {
		return
	}
	kept := alts.items[:0:0]
	hadNull := false
	for _, a := range alts.items {
		if ts := a.types(); len(ts) == 1 && ts[0] == "null" && len(a.members) <= 2 && (len(a.members) == 1 || a.has("description")) {
			hadNull = true
			continue
		}
		kept = append(kept, a)
	}
	if !hadNull {
		return
	}
	alts.items = kept
	switch len(kept) {
	case 0:
		i := n.index("anyOf")
		n.members[i] = kv("type", newString("null"))
	case 1:
		if kept[0].isObject() {
			i := n.index("anyOf")
			n.del("anyOf")
			var add []*member
			for _, m := range kept[0].members {
				if !n.has(m.key) {
					add = append(add, m)
				}
			}
			n.insertAt(i, add...)
		}
	}
	setNullable(n)
}

// enum is GM-ENUM: Gemini's enum holds non-empty strings.
func (g *gem) enum(n *node) {
	e := n.get("enum")
	if e == nil || e.kind != kArray {
		return
	}
	var keep []*node
	var moved []string
	empty := false
	for _, it := range e.items {
		switch {
		case it.kind == kString && it.str == "":
			empty = true
		case it.kind == kString:
			keep = append(keep, it)
		default:
			moved = append(moved, noteValue(it))
		}
	}
	if len(moved) == 0 && !empty {
		return
	}
	e.items = keep
	if len(keep) == 0 {
		n.del("enum")
	}
	if len(moved) > 0 {
		describe(n, []string{"one of: " + strings.Join(moved, ", ")})
		g.run.add("GM-ENUM", SeverityWarning, n.ptr, "enum values that are not strings moved to the description: Gemini's enum takes strings only")
	}
	if empty {
		g.run.add("GM-ENUM", SeverityWarning, n.ptr, "the empty string left out of enum: Gemini does not accept empty strings in enums")
	}
}

// format is GM-FORMAT: a string's format must be enum or date-time.
func (g *gem) format(n *node) {
	f := n.get("format")
	if f == nil || (!hasType(n, "string") && n.has("type")) {
		return
	}
	if f.kind == kString && (f.str == "enum" || f.str == "date-time") {
		return
	}
	n.del("format")
	describe(n, []string{"format: " + noteValue(f)})
	g.run.add("GM-FORMAT", SeverityWarning, n.ptr, "format %s moved to the description: Gemini takes only enum and date-time for strings", noteValue(f))
}

// anyOfSiblings is GM-ANYOF-SIBLINGS: next to anyOf only description and
// nullable stay.
func (g *gem) anyOfSiblings(n *node) {
	if !n.has("anyOf") {
		return
	}
	var lost []string
	kept := n.members[:0:0]
	for _, m := range n.members {
		switch {
		case m.key == "anyOf" || m.key == "description" || m.key == "nullable":
			kept = append(kept, m)
		case !annotations[m.key]:
			lost = append(lost, m.key)
		}
	}
	n.members = kept
	if len(lost) > 0 {
		g.run.add("GM-ANYOF-SIBLINGS", SeverityWarning, n.ptr, "%s next to anyOf left out: Vertex AI rejects other fields beside anyOf", strings.Join(lost, ", "))
	}
}

// fields is GM-FIELDS: keys outside the field list are removed; a warning
// names the constraints among them.
func (g *gem) fields(n *node, allowed map[string]bool) {
	var lost []string
	kept := n.members[:0:0]
	for _, m := range n.members {
		switch {
		case allowed[m.key]:
			kept = append(kept, m)
		case !annotations[m.key] && !strings.HasPrefix(m.key, "x-"):
			lost = append(lost, m.key)
		}
	}
	n.members = kept
	if len(lost) > 0 {
		g.run.add("GM-FIELDS", SeverityWarning, n.ptr, "%s removed: Gemini answers \"Unknown name\" for fields its schema lacks; beeuni still enforces them when validating", strings.Join(lost, ", "))
	}
}

// jsonSchema rewrites n (a copy) to the JSON Schema subset Google
// documents for responseJsonSchema (--gemini-schema json).
func (g *gem) jsonSchema(n *node) *node {
	if n.has("definitions") && !n.has("$defs") {
		n.rename("definitions", "$defs")
		renameRefs(n, "#/definitions/", "#/$defs/")
	}
	g.jsonNode(n)
	return n
}

func renameRefs(n *node, from, to string) {
	if !n.isObject() {
		return
	}
	if r := n.get("$ref"); r != nil && r.kind == kString && strings.HasPrefix(r.str, from) {
		n.set("$ref", newString(to+strings.TrimPrefix(r.str, from)))
	}
	eachSubschema(n, func(_ string, sub *node) { renameRefs(sub, from, to) })
}

func (g *gem) jsonNode(n *node) {
	if !n.isObject() {
		return
	}
	eachSubschema(n, func(kw string, sub *node) {
		if geminiJSONFields[kw] || kw == "allOf" {
			g.jsonNode(sub)
		}
	})
	g.constToEnum(n)
	g.allOf(n)
	if e := n.get("enum"); e != nil && e.kind == kArray {
		var keep []*node
		var moved []string
		for _, it := range e.items {
			if it.kind == kString || it.kind == kNumber {
				keep = append(keep, it)
			} else {
				moved = append(moved, noteValue(it))
			}
		}
		if len(moved) > 0 {
			e.items = keep
			if len(keep) == 0 {
				n.del("enum")
			}
			describe(n, []string{"one of: " + strings.Join(moved, ", ")})
			g.run.add("GM-ENUM", SeverityWarning, n.ptr, "enum values that are not strings or numbers moved to the description")
		}
	}
	if i := n.index("$ref"); i >= 0 {
		siblings := false
		for _, m := range n.members {
			if !strings.HasPrefix(m.key, "$") {
				siblings = true
			}
		}
		if siblings && !n.has("anyOf") {
			n.members[i] = kv("anyOf", newArray(newObject(kv("$ref", n.members[i].val))))
		}
	}
	g.fields(n, geminiJSONFields)
}
