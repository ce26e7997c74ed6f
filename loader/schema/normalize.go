package schema

import (
	"bytes"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Normalization (§1.4) of a call's arguments before the module's
// parseArgs and validation.

// notJSON is the problem for arguments that are not JSON at all (the
// routes reject those before; kept so no caller has to trust that).
var notJSON = Problem{Keyword: "json", Message: "the arguments are not valid JSON: send one JSON object"}

// DuplicateKeys returns a problem for every object in args that has a key
// more than once (§1.4a): JSON.parse and encoding/json both keep the last
// one silently. It applies in every validation mode, off included.
func DuplicateKeys(args []byte) []Problem {
	_, probs := parseArgsTree(args)
	return probs
}

func parseArgsTree(args []byte) (*node, []Problem) {
	root, dups, err := parseTree(args, false)
	if err != nil {
		return nil, []Problem{notJSON}
	}
	var probs []Problem
	for _, d := range dups {
		probs = append(probs, Problem{Path: d.ptr, Keyword: "duplicate_key",
			Message: "key " + quoteJSON(d.key) + " appears more than once; send each key once"})
	}
	sortProblems(probs)
	return root, probs
}

// Normalize applies §1.4 to a call's arguments: duplicate keys are
// problems; then every null given for an optional property whose schema
// does not accept null is removed, at every depth the schema resolves
// (properties, items; not inside anyOf/oneOf branches), because an
// openai-strict model sends null for what it leaves out. It returns args
// itself when nothing was removed. A nil Validator or one whose schema did
// not compile only checks duplicate keys.
func (v *Validator) Normalize(args []byte) ([]byte, []Problem) {
	root, probs := parseArgsTree(args)
	if len(probs) > 0 {
		return args, probs
	}
	if v == nil || v.plan == nil || !bytes.Contains(args, []byte("null")) {
		return args, nil
	}
	if !v.plan.apply(root) {
		return args, nil
	}
	return root.bytes(), nil
}

// nullPlan says, for one object schema, which properties lose a null and
// where to look deeper.
type nullPlan struct {
	drop   map[string]bool
	props  map[string]*nullPlan
	items  *nullPlan   // every element (or those past prefix)
	prefix []*nullPlan // tuple positions
}

// buildPlan reads the compiled schema once at Compile. memo ends
// recursion through $ref cycles.
func buildPlan(s *jsonschema.Schema, memo map[*jsonschema.Schema]*nullPlan) *nullPlan {
	if s == nil {
		return nil
	}
	if p, ok := memo[s]; ok {
		return p
	}
	p := &nullPlan{drop: map[string]bool{}, props: map[string]*nullPlan{}}
	memo[s] = p
	applies := gather(s, nil)
	required := map[string]bool{}
	props := map[string][]*jsonschema.Schema{}
	var order []string
	for _, a := range applies {
		for _, r := range a.Required {
			required[r] = true
		}
		for k, ps := range a.Properties {
			if _, seen := props[k]; !seen {
				order = append(order, k)
			}
			props[k] = append(props[k], ps)
		}
	}
	for _, k := range order {
		ps := props[k]
		if !required[k] && !acceptsNull(ps) {
			p.drop[k] = true
		}
		if len(ps) == 1 { // with several schemas for one property, deeper is ambiguous
			p.props[k] = buildPlan(ps[0], memo)
		}
	}
	if len(applies) == 1 {
		a := applies[0]
		for _, ps := range a.PrefixItems {
			p.prefix = append(p.prefix, buildPlan(ps, memo))
		}
		p.items = buildPlan(a.Items2020, memo)
		switch it := a.Items.(type) {
		case *jsonschema.Schema:
			p.items = buildPlan(it, memo)
		case []*jsonschema.Schema:
			for _, ps := range it {
				p.prefix = append(p.prefix, buildPlan(ps, memo))
			}
			if ai, ok := a.AdditionalItems.(*jsonschema.Schema); ok {
				p.items = buildPlan(ai, memo)
			}
		}
	}
	return p
}

// gather returns s and the schemas that always apply with it: its $ref
// chain and allOf entries (never anyOf/oneOf branches).
func gather(s *jsonschema.Schema, seen []*jsonschema.Schema) []*jsonschema.Schema {
	for _, x := range seen {
		if x == s {
			return nil
		}
	}
	out := []*jsonschema.Schema{s}
	seen = append(seen, s)
	if s.Ref != nil {
		out = append(out, gather(s.Ref, seen)...)
	}
	for _, a := range s.AllOf {
		out = append(out, gather(a, append(seen, out...))...)
	}
	return out
}

func acceptsNull(ps []*jsonschema.Schema) bool {
	for _, s := range ps {
		if s.Validate(nil) != nil {
			return false
		}
	}
	return true
}

// apply removes the planned nulls from n and reports whether it did.
func (p *nullPlan) apply(n *node) bool {
	if p == nil || n == nil {
		return false
	}
	changed := false
	switch n.kind {
	case kObject:
		kept := n.members[:0:0]
		for _, m := range n.members {
			if m.val.kind == kNull && p.drop[m.key] {
				changed = true
				continue
			}
			if p.props[m.key].apply(m.val) {
				changed = true
			}
			kept = append(kept, m)
		}
		n.members = kept
	case kArray:
		for i, it := range n.items {
			plan := p.items
			if i < len(p.prefix) {
				plan = p.prefix[i]
			}
			if plan.apply(it) {
				changed = true
			}
		}
	}
	return changed
}
