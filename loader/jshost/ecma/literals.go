package ecma

import (
	"reflect"
	"strings"

	"github.com/dop251/goja/ast"
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
	if !strings.Contains(src, `\p{`) && !strings.Contains(src, `\P{`) && !hasSurrogate(src) && !hasFlagDV(src) {
		return
	}
	route(reflect.ValueOf(p))
}

// LiteralNeedsHost reports whether a literal /pattern/flags needs the
// host's RegExp.
func LiteralNeedsHost(pattern, flags string) bool {
	return needsTranslation(pattern, flags) || needsPairs(pattern, flags) || strings.ContainsAny(flags, "dv")
}

// hasFlagDV reports whether src may hold a literal with the d or v flag:
// a slash followed by flag letters among which d or v.
func hasFlagDV(src string) bool {
	for i := strings.IndexByte(src, '/'); i >= 0; {
		j := i + 1
		dv := false
		for j < len(src) && strings.IndexByte("dgimsuvy", src[j]) >= 0 {
			dv = dv || src[j] == 'd' || src[j] == 'v'
			j++
		}
		if dv && (j == len(src) || !isIdentChar(src[j])) {
			return true
		}
		k := strings.IndexByte(src[i+1:], '/')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// hasSurrogate reports whether src may hold a pattern with a surrogate:
// an escape \uD800-\uDFFF (any case) or an astral character.
func hasSurrogate(src string) bool {
	for i := strings.Index(src, `\u`); i >= 0; {
		if v, ok := hex4(src[i+2:]); ok && isSurrogate(v) {
			return true
		}
		j := strings.Index(src[i+2:], `\u`)
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return strings.ContainsFunc(src, func(r rune) bool { return r > 0xFFFF })
}

var (
	newType   = reflect.TypeOf((*ast.NewExpression)(nil))
	regexType = reflect.TypeOf((*ast.RegExpLiteral)(nil))
	astPkg    = regexType.Elem().PkgPath()
)

// route walks the AST below v (a pointer, struct, slice or interface of
// package ast), replacing each expression that is a literal needing the
// host by its call.
func route(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct && v.Elem().Type().PkgPath() == astPkg {
			route(v.Elem())
		}
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
		route(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				route(f)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			route(v.Index(i))
		}
	}
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
