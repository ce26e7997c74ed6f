package jshost

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestZod4 loads the reference's zod example from a node_modules installed
// into the test's project; it needs npm (and the registry) and skips without.
func TestZod4(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH: skipping the zod 4 module test")
	}
	root := project(t, map[string]string{"package.json": `{"name":"p","private":true}`, "tools/lookup.ts": `
import { z } from 'zod'

const Args = z.object({ id: z.string().describe('The order id'), n: z.number().int().min(1).optional() })

export default {
  description: 'Look up an order by id.',
  parameters: z.toJSONSchema(Args),
  async execute(args: unknown) {
    const a = Args.parse(args)
    return ` + "`order ${a.id}: shipped`" + `
  },
}`})
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--silent", "zod@4")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install zod@4 failed (no registry?): %v: %s", err, out)
	}
	s, _ := loadTools(t, root, Options{}, "tools/lookup.ts")
	mustLoad(t, s)
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
