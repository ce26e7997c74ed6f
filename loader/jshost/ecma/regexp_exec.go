package ecma

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// hostExec is the exec of a regexp the host matches itself, on regexp2
// (the engine goja falls back to, with the options goja gives it): one
// without u that has a surrogate (regexp_pairs.go), and one with the d
// flag, whose matches carry the indices of their groups, which goja's
// exec does not tell. It does the standard's RegExpBuiltinExec; replace,
// match, split and the rest call it as the standard says.
type hostExec struct {
	vm             *goja.Runtime
	re             *regexp2.Regexp
	codePoints     bool // u: match code points, not units
	indices        bool // d
	global, sticky bool
	// The text of the last call, as the runes matched and, with u, the
	// unit index of each: replace and split call exec again and again
	// on the same string. Kept while a g or y search goes on, dropped
	// when it fails (as replace's and split's last call does): the exec
	// lives as long as its runtime, the text need not.
	last  goja.Value
	runes []rune
	pos   []int
}

// newHostExec compiles source (with flags, less d); indices: the d flag.
func newHostExec(vm *goja.Runtime, source, flags string, indices bool) (*hostExec, error) {
	h := &hostExec{vm: vm, codePoints: strings.ContainsRune(flags, 'u'), indices: indices,
		global: strings.ContainsRune(flags, 'g'), sticky: strings.ContainsRune(flags, 'y')}
	opts := regexp2.ECMAScript
	for _, f := range flags {
		switch f {
		case 'i':
			opts |= regexp2.IgnoreCase
		case 'm':
			opts |= regexp2.Multiline
		case 's':
			opts |= regexp2.Singleline
		case 'u':
			opts |= regexp2.Unicode
		}
	}
	pattern := pairsPattern(source)
	if h.codePoints {
		pattern = joinPairEscapes(source)
	}
	re, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return nil, err
	}
	h.re = re
	return h, nil
}

// joinPairEscapes writes each escaped surrogate pair (\uD83D\uDE00) of a
// u pattern as its code point, as goja does before regexp2 sees it.
func joinPairEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			hi, ok1 := hex4(s[i+2:])
			lo, ok2 := hex4(s[i+8:])
			if ok1 && ok2 && utf16.IsSurrogate(hi) && hi < 0xDC00 && lo >= 0xDC00 && lo <= surrogateHi {
				b.WriteRune(utf16.DecodeRune(hi, lo))
				i += 11
				continue
			}
		}
		b.WriteString(s[i : i+2])
		i++
	}
	return b.String()
}

// text makes s the text matched: units (surrogates as stand-ins), or code
// points with their unit positions.
func (h *hostExec) text(s goja.String) {
	if h.last != nil && h.last.SameAs(s) {
		return
	}
	h.runes, h.pos = h.runes[:0], h.pos[:0]
	n := s.Length()
	for i := 0; i < n; i++ {
		c := rune(s.CharAt(i))
		if !h.codePoints {
			h.runes = append(h.runes, standIn(c))
			continue
		}
		h.pos = append(h.pos, i)
		if c >= surrogateLo && c < 0xDC00 && i+1 < n {
			if lo := rune(s.CharAt(i + 1)); lo >= 0xDC00 && lo <= surrogateHi {
				c = utf16.DecodeRune(c, lo)
				i++
			}
		}
		h.runes = append(h.runes, c)
	}
	h.pos = append(h.pos, n)
	h.last = s
}

// unit is the unit index of rune index i; rune is the rune index of the
// first rune at or after unit index u.
func (h *hostExec) unit(i int) int {
	if !h.codePoints {
		return i
	}
	return h.pos[i]
}

func (h *hostExec) rune(u int) int {
	if !h.codePoints {
		return u
	}
	return sort.SearchInts(h.pos, u)
}

func (h *hostExec) exec(call goja.FunctionCall) goja.Value {
	vm := h.vm
	this := call.This.ToObject(vm)
	sv := call.Argument(0).ToString()
	s, ok := sv.(goja.String)
	if !ok {
		s = goja.StringFromUTF16(utf16.Encode([]rune(sv.String())))
	}
	last := 0
	if h.global || h.sticky {
		last = int(min(max(this.Get("lastIndex").ToInteger(), 0), int64(s.Length())+1))
	}
	fail := func() goja.Value {
		h.last, h.runes, h.pos = nil, nil, nil
		if h.global || h.sticky {
			_ = this.Set("lastIndex", 0)
		}
		return goja.Null()
	}
	if last > s.Length() {
		return fail()
	}
	h.text(s)
	start := h.rune(last)
	m, err := h.re.FindRunesMatchStartingAt(h.runes, start)
	if err != nil {
		panic(vm.NewGoError(err))
	}
	if m == nil || (h.sticky && m.RuneIndex != start) {
		return fail()
	}
	if h.global || h.sticky {
		_ = this.Set("lastIndex", h.unit(m.RuneIndex+m.RuneLength))
	}
	defer func() {
		if !h.global && !h.sticky {
			h.last, h.runes, h.pos = nil, nil, nil
		}
	}()
	groups := m.Groups()
	vals, spans := make([]any, len(groups)), make([]any, len(groups))
	var named, namedSpans *goja.Object
	for i, g := range groups {
		v, span := goja.Undefined(), goja.Undefined()
		if len(g.Captures) > 0 {
			a, b := h.unit(g.RuneIndex), h.unit(g.RuneIndex+g.RuneLength)
			v = s.Substring(a, b)
			span = vm.NewArray(a, b)
		}
		vals[i], spans[i] = v, span
		if i > 0 && g.Name != "" && g.Name != strconv.Itoa(i) {
			if named == nil {
				named, namedSpans = vm.NewObject(), vm.NewObject()
			}
			_ = named.Set(g.Name, v)
			_ = namedSpans.Set(g.Name, span)
		}
	}
	a := vm.NewArray(vals...)
	_ = a.Set("index", h.unit(m.RuneIndex))
	_ = a.Set("input", s)
	_ = a.Set("groups", orUndefined(named))
	if h.indices {
		ind := vm.NewArray(spans...)
		_ = ind.Set("groups", orUndefined(namedSpans))
		_ = a.Set("indices", ind)
	}
	return a
}

func orUndefined(o *goja.Object) goja.Value {
	if o == nil {
		return goja.Undefined()
	}
	return o
}
