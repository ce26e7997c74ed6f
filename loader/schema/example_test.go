package schema_test

import (
	"fmt"

	"github.com/beeuni/beeuni/loader/schema"
)

// The pipeline of SPEC-beyond §1.3 for one call, as the executor runs it:
// compile once per schema content, then per call normalize, (run the
// module's parseArgs), validate, and answer the message with the problems.
func Example() {
	v := schema.Compile([]byte(`{"type":"object","properties":{"id":{"type":"string"},"include_items":{"type":"boolean"}},"required":["id"]}`))
	fmt.Println(v.Status())

	args, problems := v.Normalize([]byte(`{"include_items":null}`))
	if len(problems) == 0 {
		// here the JS host runs the module's parseArgs on args
		problems = v.Validate(args)
	}
	fmt.Println(schema.Message("lookup_order", v.Signature(), problems))
	// Output:
	// on
	// invalid arguments for tool lookup_order: 1 problem; fix them and call again.
	// - at (arguments): missing property 'id'
	// lookup_order takes: {"id": string (required), "include_items": boolean}
}

func ExampleValidator_Status() {
	for _, params := range []string{
		`{"type":"object","properties":{"a":{"type":"strng"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","pattern":"(unclosed"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`,
	} {
		fmt.Println(schema.Compile([]byte(params)).Status())
	}
	// Output:
	// off: at "/properties/a/type": does not match any of the allowed shapes: at "/properties/a/type": value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'
	// off: at "/properties/a/pattern": '(unclosed' is not valid regex: error parsing regexp: missing closing ) in `(unclosed`
	// off: json-pointer in "#/$defs/missing" not found
}
