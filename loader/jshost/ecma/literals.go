package ecma

import (
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/unistring"
)

// RouteLiterals rewrites, in a parsed program, each regular expression
// literal goja would compile wrongly (LiteralNeedsHost) into a
// new RegExp(pattern, flags) call: goja compiles a literal itself, out
// of the host's reach, while the call reaches the global RegExp this
// package installs. (esbuild's regexp-unicode-property-escapes lowering
// is not enough: it misses \p{...} inside a class, /[^\p{L}]/u; the d
// and v flags it does lower, being past ES2020, goja's target.) src is
// the program's text: a program without a candidate is not walked.
// The call names the global RegExp, as esbuild's lowering does: a local
// binding named RegExp around such a literal would be called instead.
func RouteLiterals(p *ast.Program, src string) {
	at := candidates(src)
	if len(at) == 0 {
		return
	}
	w := &walker{at: at, fields: map[reflect.Type][]int{}}
	w.route(reflect.ValueOf(p))
}

// LiteralNeedsHost reports whether a literal /pattern/flags needs the
// host's RegExp.
func LiteralNeedsHost(pattern, flags string) bool {
	return needsTranslation(pattern, flags) || needsPairs(pattern, flags) || strings.ContainsAny(flags, "dv")
}

// candidates are the offsets in src where a literal that needs the host
// may be: a property escape, an escaped surrogate (any case), an astral
// character, a slash followed by flag letters among which d or v.
// Sorted; a function body with none is not walked.
func candidates(src string) []int {
	var at []int
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\' && i+2 < len(src):
			if (src[i+1] == 'p' || src[i+1] == 'P') && src[i+2] == '{' {
				at = append(at, i)
			} else if v, ok := hex4(src[i+2:]); src[i+1] == 'u' && ok && isSurrogate(v) {
				at = append(at, i)
			}
			i++ // the escaped character
		case c >= 0xF0: // the first byte of an astral character
			at = append(at, i)
		case c == '/':
			j, dv := i+1, false
			for j < len(src) && strings.IndexByte("dgimsuvy", src[j]) >= 0 {
				dv = dv || src[j] == 'd' || src[j] == 'v'
				j++
			}
			if dv && (j == len(src) || !isIdentChar(src[j])) {
				at = append(at, i)
			}
		}
	}
	return at
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

var (
	newType   = reflect.TypeOf((*ast.NewExpression)(nil))
	regexType = reflect.TypeOf((*ast.RegExpLiteral)(nil))
	astPkg    = regexType.Elem().PkgPath()
)

// walker walks the AST below a value (a pointer, struct, slice or
// interface of package ast), replacing each expression that is a literal
// needing the host by its call. It skips a block with no candidate
// offset (at) between its braces. fields caches, per struct type, the
// fields that may hold a node (the positions and names are skipped).
type walker struct {
	at     []int
	fields map[reflect.Type][]int
}

// holds reports whether a candidate lies in [from, to) (file.Idx is the
// offset plus one).
func (w *walker) holds(from, to file.Idx) bool {
	i := sort.SearchInts(w.at, int(from)-1)
	return i < len(w.at) && w.at[i] < int(to)-1
}

func (w *walker) route(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != astPkg {
			return
		}
		if b, ok := v.Interface().(*ast.BlockStatement); ok && !w.holds(b.LeftBrace, b.RightBrace+1) {
			return
		}
		w.route(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Elem().Type() == regexType {
			call := literalCall(v.Elem().Interface().(*ast.RegExpLiteral))
			if call != nil && v.CanSet() && newType.AssignableTo(v.Type()) {
				v.Set(reflect.ValueOf(call))
			}
			return
		}
		w.route(v.Elem())
	case reflect.Struct:
		for _, i := range w.nodeFields(v.Type()) {
			w.route(v.Field(i))
		}
	case reflect.Slice:
		if k := v.Type().Elem().Kind(); k != reflect.Pointer && k != reflect.Interface && k != reflect.Struct && k != reflect.Slice {
			return
		}
		for i := 0; i < v.Len(); i++ {
			w.route(v.Index(i))
		}
	}
}

func (w *walker) nodeFields(t reflect.Type) []int {
	if f, ok := w.fields[t]; ok {
		return f
	}
	var f []int
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		switch sf.Type.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Struct:
			if sf.IsExported() {
				f = append(f, i)
			}
		}
	}
	w.fields[t] = f
	return f
}

// literalCall is new RegExp(pattern, flags) for a literal that needs the
// host, or nil.
func literalCall(re *ast.RegExpLiteral) ast.Expression {
	if !LiteralNeedsHost(re.Pattern, re.Flags) {
		return nil
	}
	str := func(s string) ast.Expression {
		return &ast.StringLiteral{Idx: re.Idx, Literal: "'" + s + "'", Value: unistring.NewFromString(s)}
	}
	return &ast.NewExpression{
		New:              re.Idx,
		Callee:           &ast.Identifier{Name: "RegExp", Idx: re.Idx},
		LeftParenthesis:  re.Idx,
		ArgumentList:     []ast.Expression{str(re.Pattern), str(re.Flags)},
		RightParenthesis: re.Idx,
	}
}
