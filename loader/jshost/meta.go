package jshost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Meta is what evaluating a module tells about its tool: all a load needs
// to serve it without evaluating the module. The controller's module check
// evaluates every changed module anyway; it ships each one's Meta in the
// release's bundle pack, signed with the release, and an executor whose
// bundler was seeded with it loads that module without running it: the
// module is evaluated in the first runtime a call needs. Converging is
// then a lay-out and a switch, not a runtime per module per executor.
type Meta struct {
	Description    string          `json:"description"`
	Parameters     json.RawMessage `json:"parameters"`
	TimeoutMS      float64         `json:"timeout_ms,omitempty"` // the module's timeout export; 0: none
	Concurrent     bool            `json:"concurrent"`
	MaxResultChars int             `json:"max_result_chars,omitempty"`
	HasParseArgs   bool            `json:"has_parse_args,omitempty"`
}

// shippedMeta decodes a Meta from a release and checks it as describe
// checks a module's exports: one that does not pass is not used (the
// module is then evaluated here, as without one).
func shippedMeta(raw []byte) (*meta, error) {
	var m Meta
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read a shipped module description: %w", err)
	}
	var schema struct {
		Type string `json:"type"`
	}
	switch {
	case m.Description == "":
		return nil, errors.New("a shipped module description has no description")
	case json.Unmarshal(m.Parameters, &schema) != nil || schema.Type != "object":
		return nil, errors.New(`a shipped module description's parameters are not a JSON Schema with type "object"`)
	case m.TimeoutMS < 0 || m.TimeoutMS > float64(maxShippedTimeout/time.Millisecond) || m.MaxResultChars < 0:
		return nil, errors.New("a shipped module description has a timeout or result limit out of range")
	}
	return &meta{description: m.Description, parameters: m.Parameters, timeout: time.Duration(m.TimeoutMS * float64(time.Millisecond)),
		concurrent: m.Concurrent, maxResultChars: m.MaxResultChars, hasParseArgs: m.HasParseArgs, shipped: true}, nil
}

// maxShippedTimeout bounds a shipped timeout (a module's own export is a
// positive number of milliseconds; a year is more than any tool needs).
const maxShippedTimeout = 365 * 24 * time.Hour

// Meta is what the evaluation of tool name's module told (ok false: no
// such tool, or it loads in the opencode form, whose description is made
// here and is not shipped).
func (s *Set) Meta(name string) (Meta, bool) {
	p, ok := s.pools[name]
	if !ok || p.meta == nil || p.mod.legacy {
		return Meta{}, false
	}
	m := p.meta
	return Meta{Description: m.description, Parameters: m.parameters, TimeoutMS: float64(m.timeout) / float64(time.Millisecond),
		Concurrent: m.concurrent, MaxResultChars: m.maxResultChars, HasParseArgs: m.hasParseArgs}, true
}

// checkShipped checks, in a runtime that has just evaluated a module the
// release described, what describe would have refused: the exports must
// still make a tool (a module may depend on the executor's environment).
// The runtime is discarded when they do not.
func (w *worker) checkShipped() error {
	err := w.checkDefault()
	if err == nil && w.execute == nil {
		err = errNoExecute
	}
	if err != nil {
		w.discard()
	}
	return err
}
