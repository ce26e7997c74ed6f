package jshost

import (
	"context"
	"encoding/json"
	"errors"
)

// ErrorKind says why a Result is an error.
type ErrorKind uint8

const (
	NoError     ErrorKind = iota
	Thrown                // execute threw or rejected, its output could not be read, or the host stopped it (memory)
	TimedOut              // the call's deadline passed
	Canceled              // the caller went away
	InvalidArgs           // the arguments were rejected: by an ArgsHooks method or the module's parseArgs
)

// CallOptions tune one call (Set.CallWith).
type CallOptions struct {
	// Args checks the arguments around the module's parseArgs; nil: only
	// parseArgs runs, and its failure is the Result's Output as it is.
	Args ArgsHooks
}

// ArgsHooks is what a caller does with a call's arguments around the
// module's parseArgs (SPEC-beyond §1.3: normalize, parseArgs, validate,
// execute). The methods run in Go within the call's deadline; an error
// one returns rejects the call: execute does not run, and the Result has
// IsError, Kind InvalidArgs, the error's text as Output and the error as
// Rejected.
type ArgsHooks interface {
	// Normalize runs first, before a runtime is taken, and returns the
	// arguments parseArgs and execute get.
	Normalize(args json.RawMessage) (json.RawMessage, error)
	// ParseArgsFailed is the error for a parseArgs that threw, rejected,
	// or returned what is not an object; problem is its message, or the
	// wrong-return text.
	ParseArgsFailed(problem string) error
	// Check runs after parseArgs (or after Normalize when the module has
	// none), with the arguments execute gets, as JSON.
	Check(args json.RawMessage) error
}

// argsStep is one call's argument handling, shared by the pool (Normalize,
// and Check when there is no parseArgs) and the runtime (parseArgs, then
// Check).
type argsStep struct {
	hooks    ArgsHooks // may be nil
	rejected error     // why the arguments were rejected, once they were
}

// notExecuted is what the runtime's argument step returns when execute
// must not run: the arguments were rejected (rejected set), or the
// deadline passed between steps. The runtime stays healthy either way.
type notExecuted struct{ rejected error }

func (e *notExecuted) Error() string {
	if e.rejected != nil {
		return e.rejected.Error()
	}
	return "the call's deadline passed before execute"
}

// reject records why the arguments were rejected and returns the error
// that ends the runtime's part.
func (st *argsStep) reject(err error) error {
	st.rejected = err
	return &notExecuted{rejected: err}
}

// parseArgsFailed words a parseArgs failure with the hooks, or as itself.
func (st *argsStep) parseArgsFailed(problem string) error {
	if st.hooks == nil {
		return errors.New(problem)
	}
	return st.hooks.ParseArgsFailed(problem)
}

// check runs the Check hook, if any.
func (st *argsStep) check(args json.RawMessage) error {
	if st.hooks == nil {
		return nil
	}
	return st.hooks.Check(args)
}

// prepare is the pool's part, before a runtime is taken: Normalize, and
// Check when the module has no parseArgs. It returns the arguments to
// use, or false when the call ends here (rejected, or past its deadline).
func (st *argsStep) prepare(cctx context.Context, args json.RawMessage, parse bool) (json.RawMessage, bool) {
	if st.hooks == nil {
		return args, true
	}
	out, err := st.hooks.Normalize(args)
	if err != nil {
		st.rejected = err
		return nil, false
	}
	if !parse {
		if err := st.hooks.Check(out); err != nil {
			st.rejected = err
			return nil, false
		}
	}
	return out, cctx.Err() == nil
}

// kindOf says why a call answered an error: its deadline passed, its
// caller went away, or the tool failed.
func errorKindOf(cctx context.Context) ErrorKind {
	if cctx.Err() == nil {
		return Thrown
	}
	if errors.Is(context.Cause(cctx), context.Canceled) {
		return Canceled
	}
	return TimedOut
}
