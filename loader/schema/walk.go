package schema

import (
	"net/url"
	"strconv"
	"strings"
)

// Where subschemas sit. Only these positions hold schemas; every other
// value is keyword data, and the keys of the map positions are names (a
// property may be called "type", "items" or "title"). Rewrites go through
// eachSubschema, so they never touch a name.
var (
	mapPositions = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true,
		"definitions": true, "dependentSchemas": true,
	}
	onePositions = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true,
		"additionalItems": true, "contains": true, "not": true, "if": true, "then": true,
		"else": true, "unevaluatedItems": true, "contentSchema": true,
	}
	listPositions = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

// eachSubschema calls fn for every direct subschema of n (object or
// boolean schemas), with the keyword that holds it.
func eachSubschema(n *node, fn func(keyword string, sub *node)) {
	if !n.isObject() {
		return
	}
	for _, m := range n.members {
		v := m.val
		switch {
		case mapPositions[m.key] && v.kind == kObject:
			for _, p := range v.members {
				fn(m.key, p.val)
			}
		case m.key == "dependencies" && v.kind == kObject: // draft-07: schemas or name lists
			for _, p := range v.members {
				if p.val.kind == kObject || p.val.kind == kBool {
					fn(m.key, p.val)
				}
			}
		case onePositions[m.key] && (v.kind == kObject || v.kind == kBool):
			fn(m.key, v)
		case m.key == "items" && (v.kind == kObject || v.kind == kBool):
			fn(m.key, v)
		case (listPositions[m.key] || m.key == "items") && v.kind == kArray:
			for _, it := range v.items {
				fn(m.key, it)
			}
		}
	}
}

// propertyNames returns the keys of n's "properties" map, in order.
func propertyNames(n *node) []string {
	props := n.get("properties")
	if !props.isObject() {
		return nil
	}
	out := make([]string, len(props.members))
	for i, m := range props.members {
		out[i] = m.key
	}
	return out
}

// isObjectSchema: n describes objects (type object, or properties without a type).
func isObjectSchema(n *node) bool {
	if !n.isObject() {
		return false
	}
	ts := n.types()
	for _, t := range ts {
		if t == "object" {
			return true
		}
	}
	return ts == nil && n.has("properties")
}

func hasType(n *node, t string) bool {
	for _, x := range n.types() {
		if x == t {
			return true
		}
	}
	return false
}

// resolveLocal resolves a local $ref ("#", "#/$defs/a") against root.
func resolveLocal(root *node, ref string) (*node, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag == "" {
		return root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false // an $anchor: not resolved here
	}
	cur := root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.kind {
		case kObject:
			cur = cur.get(tok)
		case kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.items) {
				return nil, false
			}
			cur = cur.items[i]
		default:
			return nil, false
		}
		if cur == nil {
			return nil, false
		}
	}
	return cur, cur.kind == kObject || cur.kind == kBool
}

// recursive reports whether a local $ref inside root leads back to a
// schema that contains it (the schema cannot be inlined).
func recursive(root *node) bool {
	onStack := map[*node]bool{}
	done := map[*node]bool{}
	var visit func(n *node) bool
	visit = func(n *node) bool {
		if onStack[n] {
			return true
		}
		if done[n] || !n.isObject() {
			return false
		}
		onStack[n] = true
		defer func() { onStack[n] = false; done[n] = true }()
		if r := n.get("$ref"); r != nil && r.kind == kString {
			if t, ok := resolveLocal(root, r.str); ok && visit(t) {
				return true
			}
		}
		found := false
		eachSubschema(n, func(kw string, sub *node) {
			if !found && kw != "$defs" && kw != "definitions" && visit(sub) {
				found = true
			}
		})
		return found
	}
	return visit(root)
}
