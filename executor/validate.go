package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// ValidateMode is --validate-args (SPEC-beyond §1.2, D1).
type ValidateMode uint8

const (
	// ValidateDefault is the flag not given: off on the single and batch
	// routes, enforce on MCP.
	ValidateDefault ValidateMode = iota
	ValidateOff                  // no normalization, no schema check (duplicate keys and parseArgs still apply)
	ValidateWarn                 // check, log what did not match, call the tool anyway
	ValidateEnforce              // check, answer the problems instead of calling the tool
)

// ParseValidateMode reads --validate-args ("" is ValidateDefault).
func ParseValidateMode(s string) (ValidateMode, error) {
	switch s {
	case "":
		return ValidateDefault, nil
	case "off":
		return ValidateOff, nil
	case "warn":
		return ValidateWarn, nil
	case "enforce":
		return ValidateEnforce, nil
	}
	return 0, fmt.Errorf("unknown mode %q: use off, warn or enforce", s)
}

func (m ValidateMode) String() string {
	switch m {
	case ValidateOff:
		return "off"
	case ValidateWarn:
		return "warn"
	case ValidateEnforce:
		return "enforce"
	}
	return "default"
}

// forREST is the mode of the single and batch routes (D1: off by default).
func (m ValidateMode) forREST() ValidateMode {
	if m == ValidateDefault {
		return ValidateOff
	}
	return m
}

// forMCP is the mode of MCP calls: enforce, unless the operator set off
// (MCP servers must validate inputs).
func (m ValidateMode) forMCP() ValidateMode {
	if m == ValidateOff {
		return ValidateOff
	}
	return ValidateEnforce
}

// Log messages of validation.
const (
	msgSchemaNotCompiled = "[tools] parameters schema did not compile; calls are not validated"
	msgArgsMismatch      = "[tools] arguments did not match the schema"
)

// Validators compiles each tool's parameters once, memoized by content in
// bundler (nil: no memo), so a release whose module is unchanged reuses
// the compiled schema. A schema that does not compile leaves its tool
// unvalidated, with one log record.
func Validators(bundler *bundle.Bundler, tools []jshost.Tool, log *slog.Logger) map[string]*schema.Validator {
	if log == nil {
		log = slog.Default()
	}
	out := make(map[string]*schema.Validator, len(tools))
	for _, t := range tools {
		var v *schema.Validator
		if bundler != nil {
			v = bundler.Memo("schema.validator", schema.Key(t.Parameters), func() any { return schema.Compile(t.Parameters) }).(*schema.Validator)
		} else {
			v = schema.Compile(t.Parameters)
		}
		if v.Err() != nil {
			log.Warn(msgSchemaNotCompiled, slog.String("tool", t.Name), slog.String("reason", v.Err().Error()))
		}
		out[t.Name] = v
	}
	return out
}

// InvalidArgsError rejects a call's arguments: its text is the message the
// model reads (SPEC-beyond §1.6), Problems the invalid_arguments list.
type InvalidArgsError struct {
	msg      string
	Problems []schema.Problem
}

func (e *InvalidArgsError) Error() string { return e.msg }

// ArgsCheck is one call's argument handling (jshost.ArgsHooks) in mode:
// duplicate keys always, null-for-optional and the schema unless off, the
// warn record in warn mode. Build one per call.
type ArgsCheck struct {
	Tool, Agent, Session string
	Mode                 ValidateMode // off, warn or enforce
	Validator            *schema.Validator
	Log                  *slog.Logger // the warn record; nil: none

	warned bool
}

// Warned reports that the arguments did not match and the tool ran anyway.
func (c *ArgsCheck) Warned() bool { return c.warned }

func (c *ArgsCheck) reject(problems []schema.Problem) error {
	return &InvalidArgsError{msg: schema.Message(c.Tool, c.Validator.Signature(), problems), Problems: problems}
}

// Normalize rejects duplicate keys in every mode and, unless off, drops
// the nulls of optional properties (D2).
func (c *ArgsCheck) Normalize(args json.RawMessage) (json.RawMessage, error) {
	if c.Mode == ValidateOff || c.Mode == ValidateDefault {
		if probs := schema.DuplicateKeys(args); len(probs) > 0 {
			return nil, c.reject(probs)
		}
		return args, nil
	}
	out, probs := c.Validator.Normalize(args)
	if len(probs) > 0 {
		return nil, c.reject(probs)
	}
	return out, nil
}

// ParseArgsFailed rejects in every mode: parseArgs is the tool's own code.
func (c *ArgsCheck) ParseArgsFailed(problem string) error {
	return c.reject([]schema.Problem{schema.ParseArgsProblem(problem)})
}

// Check validates per mode.
func (c *ArgsCheck) Check(args json.RawMessage) error {
	if c.Mode != ValidateWarn && c.Mode != ValidateEnforce {
		return nil
	}
	probs := c.Validator.Validate(args)
	if len(probs) == 0 {
		return nil
	}
	if c.Mode == ValidateEnforce {
		return c.reject(probs)
	}
	c.warned = true
	if c.Log != nil {
		// Paths and keywords only: the messages may quote values.
		where := make([]string, len(probs))
		for i, p := range probs {
			where[i] = p.Path + " " + p.Keyword
			if p.Path == "" {
				where[i] = "(arguments) " + p.Keyword
			}
		}
		c.Log.Warn(msgArgsMismatch, slog.String("tool", c.Tool), slog.String("agent", c.Agent),
			slog.String("session", c.Session), slog.Any("problems", where))
	}
	return nil
}

// invocation is one call through the pipeline (SPEC-beyond §1.3) after the
// route's checks.
type invocation struct {
	res      jshost.Result
	problems []schema.Problem // the invalid_arguments, when they were rejected
	outcome  string           // the calls metric's outcome
	elapsed  time.Duration
}

// invoke runs tool name of ts (the caller holds a reference and checked
// that the agent sees it) with args in mode, and counts the call.
func (s *Server) invoke(ctx context.Context, ts *ToolSet, name, agent, session string, args json.RawMessage, mode ValidateMode) (invocation, error) {
	s.undeclared.note(s.log, ts, agent)
	ac := &ArgsCheck{Tool: name, Agent: agent, Session: session, Mode: mode, Validator: ts.validators[name], Log: s.log}
	cc := jshost.CallContext{SessionID: session, Agent: agent, Env: s.env(ts, agent)}
	s.inFlight.Add(1)
	start := time.Now()
	res, err := ts.set.CallWith(ctx, name, args, cc, jshost.CallOptions{Args: ac})
	elapsed := time.Since(start)
	s.inFlight.Add(-1)
	s.activity.Add(1)
	if err != nil {
		return invocation{}, err
	}
	inv := invocation{res: res, elapsed: elapsed, outcome: outcomeOK}
	var ia *InvalidArgsError
	switch {
	case errors.As(res.Rejected, &ia):
		inv.problems, inv.outcome = ia.Problems, outcomeInvalidArgs
	case ac.Warned():
		inv.outcome = outcomeInvalidArgsWarned
	case res.IsError && (res.Kind == jshost.Canceled || errors.Is(ctx.Err(), context.Canceled)):
		inv.outcome = outcomeCanceled
	case res.IsError:
		inv.outcome = outcomeToolError
	}
	s.metrics.called(name, inv.outcome, elapsed)
	if s.log.Enabled(ctx, slog.LevelDebug) { // spares boxing the attributes per call
		s.log.Debug("tool call", slog.String("tool", name), slog.String("agent", agent),
			slog.String("session", session), slog.String("release", ts.Release()),
			slog.String("outcome", inv.outcome), slog.Duration("took", elapsed))
	}
	return inv, nil
}

// validationStatus is a tool's "validation" in GET /beeuni/tools.
func (ts *ToolSet) validationStatus(name string) string {
	if v := ts.validators[name]; v != nil {
		return v.Status()
	}
	return "off: not compiled"
}
