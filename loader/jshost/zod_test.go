package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// TestZod4 loads the reference's zod example, and a zod object given as
// parameters, with the real zod from the npm cache (skips without npm).
func TestZod4(t *testing.T) {
	root := project(t, map[string]string{"tools/lookup.ts": `
import { z } from 'zod'

const Args = z.object({ id: z.string().describe('The order id'), n: z.number().int().min(1).optional() })

export default {
  description: 'Look up an order by id.',
  parameters: z.toJSONSchema(Args),
  async execute(args: unknown) {
    const a = Args.parse(args)
    return ` + "`order ${a.id}: shipped`" + `
  },
}`, "tools/raw.ts": `
import { z } from 'zod'

export default {
  description: 'zod given as parameters.',
  parameters: z.object({ id: z.string() }),
  execute: () => 'never',
}`})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if err := npmcache.Project(ctx, root, "zod@4.3.6"); err != nil {
		if errors.Is(err, npmcache.ErrNoNPM) {
			t.Skip("npm is not on PATH: skipping the zod 4 module test")
		}
		t.Fatal(err)
	}
	s, _ := loadTools(t, root, Options{}, "tools/lookup.ts", "tools/raw.ts")
	if f := s.Failures(); len(f) != 1 || f[0].Name != "raw" || f[0].Reason != "parameters is a zod schema, not JSON Schema: the model reads JSON Schema, so write `parameters: z.toJSONSchema(yourSchema)` (zod 4)" {
		t.Fatalf("failures = %+v", f)
	}
	tool, _ := s.Tool("lookup")
	var schema struct {
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || schema.Properties["id"]["description"] != "The order id" || strings.Join(schema.Required, ",") != "id" {
		t.Fatalf("parameters = %s", tool.Parameters)
	}
	if r := call(t, s, "lookup", `{"id":"A-1042"}`); r.Output != "order A-1042: shipped" || r.IsError {
		t.Fatalf("lookup = %+v", r)
	}
	r := call(t, s, "lookup", `{"id":5}`)
	if !r.IsError || !strings.Contains(r.Output, "expected string") {
		t.Fatalf("lookup with a bad id = %+v", r)
	}
}
