package ecma

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// JSON.parse in Go. goja's parses through encoding/json's Decoder.Token,
// which boxes every token: 12 KB of JSON took 373 µs and 6,500
// allocations, and every tool that fetches JSON pays it (response.json()
// is JSON.parse). This parser walks the text once and makes the values
// directly. Its SyntaxErrors are V8's, message and position (Node's
// answer), where goja's were encoding/json's; and it keeps a lone
// surrogate (a "\ud800" escape, or one in the text) as JS does, where
// goja's made it U+FFFD.

// maxParseDepth bounds the nesting the parser recurses into. The limits
// platform refuses deeper text first (for long text) and the executor's
// argument check (encoding/json's 10,000): this is the last line.
const maxParseDepth = 100000

// A parse keeps the keys and short string values it has made, up to
// maxInterned of each, to make each only once.
const (
	maxInterned = 1024
	maxShort    = 32
)

// Parser parses JSON text into one runtime's values.
type Parser struct {
	vm      *goja.Runtime
	syntax  goja.Value    // the original SyntaxError constructor
	rangeE  goja.Value    // the original RangeError constructor
	defProp goja.Callable // the original Reflect.defineProperty, for keys a Go string cannot hold
	busy    bool          // a parse is running (a reentrant one makes its own state)

	// One parse's state.
	s     string
	wtf8  bool // s is WTF-8: the three bytes of a surrogate are that surrogate
	i     int
	depth int
	err   *parseError
	keys  map[string]string     // the parse's keys, each copied once
	short map[string]goja.Value // the parse's short string values, each made once
	items []any                 // the elements of the arrays being parsed
	units []uint16              // a string's code units while escapes are decoded
}

type parserKey struct{}

// JSONParser is r's parser, made on first use.
func JSONParser(r *rt.Runtime) *Parser {
	return rt.Local(r, parserKey{}, func() *Parser { return newParser(r.VM) })
}

func newParser(vm *goja.Runtime) *Parser {
	p := &Parser{vm: vm, syntax: vm.Get("SyntaxError"), rangeE: vm.Get("RangeError")}
	if refl, ok := vm.Get("Reflect").(*goja.Object); ok {
		p.defProp, _ = goja.AssertFunction(refl.Get("defineProperty"))
	}
	return p
}

// Parse is JSON.parse(text) without a reviver, text being UTF-8 (bytes
// that are not are U+FFFD). A failure is the error JSON.parse throws, as a
// value to throw.
func (p *Parser) Parse(text string) (v goja.Value, e goja.Value) {
	// The host calls this outside any JS call: what goja would throw
	// (nothing should, on a fresh object) is an error, not a crash.
	defer func() {
		if r := recover(); r != nil {
			v, e = nil, p.vm.NewGoError(fmt.Errorf("JSON.parse: %v", r))
		}
	}()
	return p.parse(text, false)
}

func (p *Parser) parse(text string, wtf8 bool) (goja.Value, goja.Value) {
	if p.busy { // a key's defineProperty cannot call back, but be sure
		return newParser(p.vm).parse(text, wtf8)
	}
	p.busy = true
	p.s, p.wtf8, p.i, p.depth, p.err = text, wtf8, 0, 0, nil
	defer p.reset()
	p.ws()
	v := p.value()
	if p.err == nil {
		p.ws()
		if p.i < len(p.s) {
			p.fail(p.i, msgAfterJSON)
		}
	}
	if p.err != nil {
		return nil, p.err.value(p)
	}
	return v, nil
}

// reset lets go of the parse's text and values, keeping the buffers.
func (p *Parser) reset() {
	p.busy = false
	p.s = ""
	// A map grown by a large text would cost its size to clear each time.
	if len(p.keys) > maxClear {
		p.keys = nil
	}
	if len(p.short) > maxClear {
		p.short = nil
	}
	clear(p.keys)
	clear(p.short)
	clear(p.items[:cap(p.items)])
	p.items = p.items[:0]
	// A huge text's buffers are not kept for the runtime's life.
	if cap(p.items) > maxSpareItems {
		p.items = nil
	}
	if cap(p.units) > maxSpareUnits {
		p.units = nil
	}
}

const (
	maxClear      = 64
	maxSpareItems = 4 << 10
	maxSpareUnits = 64 << 10
)

func (p *Parser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value parses one value at p.i (whitespace skipped). On failure p.err is
// set and the result is nil.
func (p *Parser) value() goja.Value {
	if p.i >= len(p.s) {
		p.fail(p.i, msgEnd)
		return nil
	}
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		// No defer for the depth: a failure ends the parse, and the next
		// one starts at 0.
		if !p.enter() {
			return nil
		}
		var v goja.Value
		if c == '{' {
			v = p.object()
		} else {
			v = p.array()
		}
		p.depth--
		return v
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", goja.Value(p.vm.ToValue(true)))
	case c == 'f':
		return p.literal("false", goja.Value(p.vm.ToValue(false)))
	case c == 'n':
		return p.literal("null", goja.Null())
	default:
		p.fail(p.i, msgToken)
		return nil
	}
}

func (p *Parser) literal(word string, v goja.Value) goja.Value {
	for k := 0; k < len(word); k++ {
		j := p.i + k
		if j >= len(p.s) {
			p.fail(j, msgEnd)
			return nil
		}
		if p.s[j] != word[k] {
			p.fail(j, msgToken)
			return nil
		}
	}
	p.i += len(word)
	return v
}

func (p *Parser) enter() bool {
	p.depth++
	if p.depth > maxParseDepth {
		p.fail(p.i, msgDeep)
		return false
	}
	return true
}

func (p *Parser) object() goja.Value {
	o := p.vm.NewObject()
	if p.open('}') {
		return o
	}
	expect := msgPropOrBrace
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			p.fail(p.i, expect)
			return nil
		}
		key, keyV, ok := p.key()
		if !ok {
			return nil
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.fail(p.i, msgColon)
			return nil
		}
		p.i++
		p.ws()
		v := p.value()
		if v == nil {
			return nil
		}
		if keyV != nil {
			// A key with a lone surrogate: a Go string cannot hold it.
			desc := p.vm.CreateObject(nil) // nothing inherited reads as a descriptor field
			_ = desc.Set("value", v)
			_ = desc.Set("writable", true)
			_ = desc.Set("enumerable", true)
			_ = desc.Set("configurable", true)
			if _, err := p.defProp(goja.Undefined(), o, keyV, desc); err != nil {
				panic(err)
			}
		} else if err := o.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			panic(err)
		}
		more, ok := p.next('}', msgCommaBrace)
		if !ok {
			return nil
		}
		if !more {
			return o
		}
		expect = msgPropName
	}
}

// next reads what follows a member: a comma (more), the closing bracket
// (not more), or anything else (fails with msg).
func (p *Parser) next(closing byte, msg parseMsg) (more, ok bool) {
	p.ws()
	if p.i < len(p.s) {
		switch p.s[p.i] {
		case ',':
			p.i++
			p.ws()
			return true, true
		case closing:
			p.i++
			return false, true
		}
	}
	p.fail(p.i, msg)
	return false, false
}

// open reads an opening bracket and says whether its closing one follows.
func (p *Parser) open(closing byte) (empty bool) {
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == closing {
		p.i++
		return true
	}
	return false
}

func (p *Parser) array() goja.Value {
	base := len(p.items)
	if p.open(']') {
		return p.vm.NewArray()
	}
	for {
		v := p.value()
		if v == nil {
			return nil
		}
		p.items = append(p.items, v)
		more, ok := p.next(']', msgCommaBracket)
		if !ok {
			return nil
		}
		if !more {
			a := p.vm.NewArray(p.items[base:]...)
			clear(p.items[base:])
			p.items = p.items[:base]
			return a
		}
	}
}

func (p *Parser) number() goja.Value {
	s := p.s
	start := p.i
	j := p.i
	neg := s[j] == '-'
	if neg {
		j++
		if !isDigit(s, j) {
			p.fail(j, msgMinus)
			return nil
		}
	}
	intStart := j
	if s[j] == '0' {
		j++
		if isDigit(s, j) {
			p.fail(j, msgNumber)
			return nil
		}
	} else {
		j = digitsEnd(s, j)
	}
	integer := true
	// A fraction, then an exponent: each needs a digit after its mark.
	for _, part := range [...]struct {
		marks string
		msg   parseMsg
	}{{".", msgFraction}, {"eE", msgExponent}} {
		if j >= len(s) || !strings.ContainsRune(part.marks, rune(s[j])) {
			continue
		}
		integer = false
		j++
		if part.msg == msgExponent && j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if !isDigit(s, j) {
			p.fail(j, part.msg)
			return nil
		}
		j = digitsEnd(s, j)
	}
	p.i = j
	// Up to 15 digits an integer is exact in a float64; -0 is a float.
	if integer && j-intStart <= 15 && !(neg && j-intStart == 1 && s[intStart] == '0') {
		var n int64
		for _, c := range []byte(s[intStart:j]) {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return p.vm.ToValue(n)
	}
	// Well formed by the scan above; out of range is ±Infinity or 0, as in JS.
	f, _ := strconv.ParseFloat(s[start:j], 64)
	return p.vm.ToValue(f)
}

func isDigit(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

func digitsEnd(s string, i int) int {
	for isDigit(s, i) {
		i++
	}
	return i
}
