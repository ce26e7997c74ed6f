package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// An ordered JSON tree: schemas and arguments keep their key order and their
// scalar tokens exactly as written, which Go maps would lose. Renderers
// rewrite it in place; normalization drops members from it.

type jkind uint8

const (
	kNull jkind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

type node struct {
	kind    jkind
	raw     string    // scalars: the token as written ("1.50", "true", "\"a\\u0062\"")
	str     string    // kString: the decoded value
	items   []*node   // kArray
	members []*member // kObject, in document order
	ptr     string    // schemas: JSON Pointer of the node in the parameters it came from
}

type member struct {
	key    string // decoded
	val    *node
	rawKey string // the key token as written, when parsed; written back as is
}

// dupKey is an object key that appears more than once.
type dupKey struct {
	ptr string // the object's JSON Pointer
	key string
}

var errNotJSON = errors.New("not valid JSON")

// parseTree parses data (checked with json.Valid first) into a tree.
// withPtr records every node's JSON Pointer (schemas); duplicate keys are
// always reported, the later member kept out of the tree.
func parseTree(data []byte, withPtr bool) (*node, []dupKey, error) {
	if !json.Valid(data) {
		return nil, nil, errNotJSON
	}
	p := &parser{data: data, withPtr: withPtr}
	n, err := p.value("")
	if err != nil {
		return nil, nil, err
	}
	return n, p.dups, nil
}

type parser struct {
	data    []byte
	pos     int
	withPtr bool
	path    []string // tokens of the current location (for duplicate reports)
	dups    []dupKey
}

func (p *parser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(ptr string) (*node, error) {
	p.ws()
	if p.pos >= len(p.data) {
		return nil, errNotJSON
	}
	n := &node{}
	if p.withPtr {
		n.ptr = ptr
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		n.kind = kObject
		return n, p.object(n, ptr)
	case c == '[':
		n.kind = kArray
		return n, p.array(n, ptr)
	case c == '"':
		raw, s, err := p.string()
		n.kind, n.raw, n.str = kString, raw, s
		return n, err
	case c == 't' || c == 'f':
		n.kind = kBool
	case c == 'n':
		n.kind = kNull
	default:
		n.kind = kNumber
	}
	start := p.pos
	for p.pos < len(p.data) && strings.IndexByte("+-0123456789.eEtrufalsn", p.data[p.pos]) >= 0 {
		p.pos++
	}
	if p.pos == start {
		return nil, errNotJSON
	}
	n.raw = string(p.data[start:p.pos])
	return n, nil
}

// string reads a string token and returns it raw and decoded.
func (p *parser) string() (string, string, error) {
	start := p.pos
	p.pos++ // opening quote
	escaped := false
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\\':
			escaped = true
			p.pos += 2
			continue
		case '"':
			p.pos++
			raw := string(p.data[start:p.pos])
			if !escaped && utf8.ValidString(raw) {
				return raw, raw[1 : len(raw)-1], nil
			}
			var s string
			if err := json.Unmarshal(p.data[start:p.pos], &s); err != nil {
				return "", "", errNotJSON
			}
			return raw, s, nil
		}
		p.pos++
	}
	return "", "", errNotJSON
}

func (p *parser) object(n *node, ptr string) error {
	p.pos++ // {
	var seen map[string]struct{}
	for {
		p.ws()
		if p.pos >= len(p.data) {
			return errNotJSON
		}
		if p.data[p.pos] == '}' {
			p.pos++
			return nil
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] != '"' {
			return errNotJSON
		}
		rawKey, key, err := p.string()
		if err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return errNotJSON
		}
		p.pos++
		childPtr := ""
		if p.withPtr {
			childPtr = ptr + "/" + escapePointer(key)
		}
		p.path = append(p.path, key)
		v, err := p.value(childPtr)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return err
		}
		if seen == nil && len(n.members) >= 8 {
			seen = make(map[string]struct{}, 2*len(n.members))
			for _, m := range n.members {
				seen[m.key] = struct{}{}
			}
		}
		if p.has(n, seen, key) {
			p.dups = append(p.dups, dupKey{ptr: pointer(p.path), key: key})
			continue
		}
		if seen != nil {
			seen[key] = struct{}{}
		}
		n.members = append(n.members, &member{key: key, val: v, rawKey: rawKey})
	}
}

func (p *parser) has(n *node, seen map[string]struct{}, key string) bool {
	if seen != nil {
		_, ok := seen[key]
		return ok
	}
	for _, m := range n.members {
		if m.key == key {
			return true
		}
	}
	return false
}

func (p *parser) array(n *node, ptr string) error {
	p.pos++ // [
	for {
		p.ws()
		if p.pos >= len(p.data) {
			return errNotJSON
		}
		switch p.data[p.pos] {
		case ']':
			p.pos++
			return nil
		case ',':
			p.pos++
			continue
		}
		i := len(n.items)
		childPtr := ""
		if p.withPtr {
			childPtr = ptr + "/" + strconv.Itoa(i)
		}
		p.path = append(p.path, strconv.Itoa(i))
		v, err := p.value(childPtr)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return err
		}
		n.items = append(n.items, v)
	}
}

// escapePointer escapes one JSON Pointer token (RFC 6901).
func escapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// pointer joins unescaped tokens into a JSON Pointer ("" for the root).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapePointer(t))
	}
	return b.String()
}

// --- building and reading

func newString(s string) *node { return &node{kind: kString, raw: quoteJSON(s), str: s} }
func newBool(v bool) *node {
	if v {
		return &node{kind: kBool, raw: "true"}
	}
	return &node{kind: kBool, raw: "false"}
}
func newNull() *node                 { return &node{kind: kNull, raw: "null"} }
func newObject(ms ...*member) *node  { return &node{kind: kObject, members: ms} }
func newArray(items ...*node) *node  { return &node{kind: kArray, items: items} }
func kv(key string, v *node) *member { return &member{key: key, val: v} }

func (n *node) isObject() bool { return n != nil && n.kind == kObject }

// get returns the value of key in an object node, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

func (n *node) index(key string) int {
	if n == nil || n.kind != kObject {
		return -1
	}
	for i, m := range n.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

func (n *node) has(key string) bool { return n.index(key) >= 0 }

// del removes key and returns its value (nil when absent).
func (n *node) del(key string) *node {
	i := n.index(key)
	if i < 0 {
		return nil
	}
	v := n.members[i].val
	n.members = append(n.members[:i], n.members[i+1:]...)
	return v
}

// set replaces key's value in place, or appends the member.
func (n *node) set(key string, v *node) {
	if i := n.index(key); i >= 0 {
		n.members[i].val = v
		return
	}
	n.members = append(n.members, kv(key, v))
}

// rename gives the member key the name to (a keyword rewrite).
func (n *node) rename(key, to string) {
	if i := n.index(key); i >= 0 {
		n.members[i] = &member{key: to, val: n.members[i].val}
	}
}

// insertAt puts members at position i.
func (n *node) insertAt(i int, ms ...*member) {
	n.members = append(n.members[:i], append(ms, n.members[i:]...)...)
}

func (n *node) isTrue() bool  { return n != nil && n.kind == kBool && n.raw == "true" }
func (n *node) isFalse() bool { return n != nil && n.kind == kBool && n.raw == "false" }

// strs returns the strings of an array node (non-strings skipped).
func (n *node) strs() []string {
	if n == nil || n.kind != kArray {
		return nil
	}
	out := make([]string, 0, len(n.items))
	for _, it := range n.items {
		if it.kind == kString {
			out = append(out, it.str)
		}
	}
	return out
}

// types returns the "type" keyword as a list (nil when absent or malformed).
func (n *node) types() []string {
	t := n.get("type")
	switch {
	case t == nil:
		return nil
	case t.kind == kString:
		return []string{t.str}
	default:
		return t.strs()
	}
}

func (n *node) clone() *node {
	if n == nil {
		return nil
	}
	c := *n
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	if n.members != nil {
		c.members = make([]*member, len(n.members))
		for i, m := range n.members {
			c.members[i] = &member{key: m.key, val: m.val.clone(), rawKey: m.rawKey}
		}
	}
	return &c
}

// size counts the nodes of a tree.
func (n *node) size() int {
	s := 1
	for _, it := range n.items {
		s += it.size()
	}
	for _, m := range n.members {
		s += m.val.size()
	}
	return s
}

// --- writing

// quotedKey is the key as JSON: as written when parsed, else encoded.
func (m *member) quotedKey() string {
	if m.rawKey != "" {
		return m.rawKey
	}
	return quoteJSON(m.key)
}

// compact writes the tree as compact JSON, scalars as they were written.
func (n *node) compact(b *bytes.Buffer) {
	switch n.kind {
	case kObject:
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(m.quotedKey())
			b.WriteByte(':')
			m.val.compact(b)
		}
		b.WriteByte('}')
	case kArray:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.compact(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.raw)
	}
}

func (n *node) bytes() []byte {
	var b bytes.Buffer
	n.compact(&b)
	return b.Bytes()
}

// pretty writes the tree indented by two spaces; an object or array whose
// values are all scalars (or empty) stays on one line (`{"type": "string"}`,
// `["query"]`), the layout of SPEC-beyond 3.2.
func (n *node) pretty(b *bytes.Buffer, indent int) {
	switch n.kind {
	case kObject, kArray:
	default:
		b.WriteString(n.raw)
		return
	}
	open, close := byte('{'), byte('}')
	count := len(n.members)
	if n.kind == kArray {
		open, close, count = '[', ']', len(n.items)
	}
	child := func(i int) *node {
		if n.kind == kArray {
			return n.items[i]
		}
		return n.members[i].val
	}
	flat := true
	for i := range count {
		if v := child(i); len(v.members) > 0 || len(v.items) > 0 {
			flat = false
			break
		}
	}
	b.WriteByte(open)
	for i := range count {
		v := child(i)
		switch {
		case flat && i > 0:
			b.WriteString(", ")
		case !flat:
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", indent+1))
		}
		if n.kind == kObject {
			b.WriteString(n.members[i].quotedKey())
			b.WriteString(": ")
		}
		v.pretty(b, indent+1)
	}
	if !flat && count > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", indent))
	}
	b.WriteByte(close)
}

// Pretty re-indents a JSON value the way render prints it, keeping key
// order and scalar tokens. Invalid JSON is returned unchanged.
func Pretty(data []byte) []byte {
	n, _, err := parseTree(data, false)
	if err != nil {
		return data
	}
	var b bytes.Buffer
	n.pretty(&b, 0)
	return b.Bytes()
}

// quoteJSON encodes s as a JSON string like JSON.stringify does: no HTML
// escaping; control characters escaped; invalid UTF-8 as U+FFFD.
func quoteJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
