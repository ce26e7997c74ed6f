// Package schema is everything beeuni does with a tool's parameters
// schema: it validates arguments against it (SPEC-beyond §1: normalization,
// validation, the error the model reads), renders it for a provider's
// tools list (§3.2-3.6), and lints it against what each provider accepts.
package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// resourceURL names the parameters inside the compiler; relative $refs
// resolve against it and are refused (no loader reaches anything).
const resourceURL = "beeuni:parameters.json"

// patternTimeout bounds one ECMA-262 match, so a pattern with
// catastrophic backtracking cannot hold a call past any sane deadline.
const patternTimeout = time.Second

// Validator is one tool's compiled parameters schema. Compile it once per
// schema content (see Key) and share it: it is safe for concurrent use.
type Validator struct {
	sig  string             // the signature line's value
	sch  *jsonschema.Schema // nil when the schema did not compile
	err  error              // why sch is nil
	plan *nullPlan          // which nulls normalization removes
}

// Key is the content key to memoize Compile by (sha256 of the bytes).
func Key(parameters []byte) string {
	sum := sha256.Sum256(parameters)
	return hex.EncodeToString(sum[:])
}

// Compile compiles a tool's parameters (the module's raw JSON). It never
// fails: a schema that does not compile gives a Validator whose Err says
// why, whose Validate accepts everything and whose Normalize only rejects
// duplicate keys, so the tool still loads with validation off.
func Compile(parameters []byte) *Validator {
	v := &Validator{sig: Signature(parameters)}
	v.sch, v.err = compile(parameters)
	if v.err == nil {
		v.plan = buildPlan(v.sch, map[*jsonschema.Schema]*nullPlan{})
	}
	return v
}

// Err is nil when calls can be validated, else the reason they cannot.
func (v *Validator) Err() error { return v.err }

// Status is what GET /beeuni/tools shows: "on", or "off: <reason>".
func (v *Validator) Status() string {
	if v.err != nil {
		return "off: " + v.err.Error()
	}
	return "on"
}

// Signature is the value of the message's "<name> takes:" line.
func (v *Validator) Signature() string { return v.sig }

func compile(parameters []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(parameters))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(ecmaRegexp)
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, errors.New(reason(err))
	}
	sch, err := c.Compile(resourceURL)
	if err != nil {
		return nil, errors.New(reason(err))
	}
	return sch, nil
}

// refuseLoader is the compiler's only way out: it reaches nothing, so a
// remote $ref fails the compile without any network access.
type refuseLoader struct{}

func (refuseLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("$ref %s is not local: beeuni fetches no schema; copy it under $defs and use \"$ref\": \"#/$defs/...\"", u)
}

// reason turns a compile error into one line without the internal URL.
func reason(err error) string {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		if probs := problemsOf(ve); len(probs) > 0 {
			p := probs[0]
			if p.nested != "" { // the shape problem alone says too little
				return fmt.Sprintf("at %s: %s: %s", where(p.Path), p.Message, p.nested)
			}
			return fmt.Sprintf("at %s: %s", where(p.Path), p.Message)
		}
	}
	var lue *jsonschema.LoadURLError
	if errors.As(err, &lue) && lue.Err != nil {
		return oneLine(lue.Err.Error())
	}
	s := strings.ReplaceAll(err.Error(), resourceURL, "")
	s = strings.ReplaceAll(s, "jsonschema: ", "")
	return oneLine(s)
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// ecmaRegexp compiles `pattern` with ECMA-262 semantics (regexp2's
// ECMAScript mode), so a pattern means what it means in the module's JS.
func ecmaRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = patternTimeout
	return (*ecmaRE)(re), nil
}

type ecmaRE regexp2.Regexp

func (re *ecmaRE) MatchString(s string) bool {
	ok, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && ok
}

func (re *ecmaRE) String() string { return (*regexp2.Regexp)(re).String() }

// Validate checks arguments (a JSON object, after Normalize and the
// module's parseArgs) and returns the problems, sorted; nil when they are
// valid or when the schema did not compile.
func (v *Validator) Validate(args []byte) []Problem {
	if v.sch == nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return []Problem{{Keyword: "json", Message: "the arguments are not valid JSON: send one JSON object"}}
	}
	err = v.sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Keyword: "schema", Message: oneLine(err.Error())}}
	}
	probs := problemsOf(ve)
	sortProblems(probs)
	return probs
}

var english = message.NewPrinter(language.English)

// problemsOf flattens the library's error tree into leaf problems (§1.6):
// wrappers (the schema, groups, $ref, allOf) are looked through; anyOf
// and oneOf become one problem with the first branch's deepest problem.
func problemsOf(ve *jsonschema.ValidationError) []Problem {
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		path := pointer(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
			for _, c := range e.Causes {
				walk(c)
			}
		case *kind.AnyOf:
			out = append(out, branchProblem(path, "anyOf", e.Causes))
		case *kind.OneOf:
			if len(k.Subschemas) == 0 {
				out = append(out, branchProblem(path, "oneOf", e.Causes))
			} else {
				out = append(out, Problem{Path: path, Keyword: "oneOf",
					Message: fmt.Sprintf("matches more than one of the allowed shapes (%d and %d): send a value that matches exactly one", k.Subschemas[0], k.Subschemas[1])})
			}
		case *kind.Not:
			out = append(out, Problem{Path: path, Keyword: "not", Message: "not allowed here"})
		case *kind.FalseSchema:
			out = append(out, Problem{Path: path, Keyword: "false", Message: "not allowed here"})
		default:
			out = append(out, leafProblem(path, e.ErrorKind))
		}
	}
	walk(ve)
	return out
}

// branchProblem is anyOf/oneOf: the shape problem plus the first branch's
// deepest problem as the nested line.
func branchProblem(path, keyword string, causes []*jsonschema.ValidationError) Problem {
	p := Problem{Path: path, Keyword: keyword, Message: "does not match any of the allowed shapes"}
	if len(causes) > 0 {
		inner := problemsOf(causes[0])
		sortProblems(inner)
		best := -1
		for i, q := range inner {
			if best < 0 || depth(q.Path) > depth(inner[best].Path) {
				best = i
			}
		}
		if best >= 0 {
			p.nested = fmt.Sprintf("at %s: %s", where(inner[best].Path), inner[best].Message)
		}
	}
	return p
}

func depth(ptr string) int { return strings.Count(ptr, "/") }

// leafProblem words one keyword failure: the library's English text,
// except where §1.6 caps what is shown (enum values, quoted values).
func leafProblem(path string, k jsonschema.ErrorKind) Problem {
	kw := ""
	if kp := k.KeywordPath(); len(kp) > 0 {
		kw = kp[0]
	}
	msg := k.LocalizedString(english)
	switch k := k.(type) {
	case *kind.Enum:
		msg = enumText(k)
	case *kind.Const:
		if _, complex := k.Want.(map[string]any); !complex {
			if _, arr := k.Want.([]any); !arr {
				msg = "value must be " + display(k.Want, quoteCap)
			}
		}
	case *kind.Pattern:
		msg = fmt.Sprintf("%s does not match pattern %s", quoteValue(k.Got, quoteCap), quoteValue(k.Want, 0))
	}
	return Problem{Path: path, Keyword: kw, Message: msg}
}

// enumCap is how many enum values a problem lists.
const enumCap = 10

func enumText(k *kind.Enum) string {
	for _, w := range k.Want {
		switch w.(type) {
		case []any, map[string]any:
			return k.LocalizedString(english) // the library's "'enum' failed"
		}
	}
	if len(k.Want) == 1 {
		return "value must be " + display(k.Want[0], quoteCap)
	}
	vals := make([]string, 0, enumCap+1)
	for i, w := range k.Want {
		if i == enumCap {
			vals = append(vals, "…")
			break
		}
		vals = append(vals, display(w, quoteCap))
	}
	return "value must be one of " + strings.Join(vals, ", ")
}

// quoteCap is how many characters of a value a problem quotes (§1.6: the
// arguments may hold secrets).
const quoteCap = 40

func display(v any, limit int) string {
	if s, ok := v.(string); ok {
		return quoteValue(s, limit)
	}
	return fmt.Sprintf("%v", v)
}

// quoteValue quotes like the library ('a\'b'), cut to limit characters
// (the "…" included) when limit > 0.
func quoteValue(s string, limit int) string {
	if limit > 0 && len([]rune(s)) > limit {
		s = string([]rune(s)[:limit-1]) + "…"
	}
	q := fmt.Sprintf("%q", s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}
