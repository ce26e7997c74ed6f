// Package modcheck loads a release's tool modules in a child process that
// can reach nothing of the controller's: no key material, no tokens, a
// minimal environment, the release's files read-only, a temp folder the
// only thing writable, no network, a deadline and a memory limit. It is how
// the controller checks that changed modules load without running project
// code where its signing key is in reach.
//
// The child is the same binary run as `beeuni internal check` (Serve is its
// body). It confines itself (internal/confine) before it reads a module,
// and refuses to run where the kernel lacks Landlock. The two talk in JSON:
// one request on the child's stdin, one object per line on its stdout
// (tool, failure, done), so the parent knows which modules finished
// when the child is killed at the deadline or dies of its memory limit.
package modcheck

import (
	"time"

	"github.com/beeuni/beeuni/loader/jshost"
)

// Defaults of Options.
const (
	DefaultDeadline = 10 * time.Second
	// DefaultMemoryBytes is what the check process may add to its address
	// space once it is confined: the modules' memory. (The Go runtime,
	// goja and esbuild have reserved 1.2-1.7 GiB by then, mostly not
	// resident; a limit on the whole would depend on the build.)
	DefaultMemoryBytes = 512 << 20
)

// request is what the parent writes to the child's stdin.
type request struct {
	Root        string     `json:"root"`  // the laid-out release, read-only to the child
	Temp        string     `json:"temp"`  // the one folder the child may write
	Specs       []wireSpec `json:"specs"` // the modules to load, all at once
	MemoryBytes uint64     `json:"memory_bytes,omitempty"`
	// KernelABI is confine.Policy.KernelABI (tests: the no-Landlock path).
	KernelABI *int `json:"kernel_abi,omitempty"`
}

type wireSpec struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Path   string `json:"path"`
	// Meta is what the module's evaluation told (child to parent only):
	// the controller ships it with the release's bundles.
	Meta *jshost.Meta `json:"meta,omitempty"`
}

// line is one line of the child's stdout; exactly one field is set.
type line struct {
	Confined int       `json:"confined,omitempty"` // the Landlock ABI it confined itself with
	Refused  string    `json:"refused,omitempty"`  // it would not run: why
	Tool     *wireSpec `json:"tool,omitempty"`     // a module loaded
	Failure  *failure  `json:"failure,omitempty"`  // a module did not load
	Done     bool      `json:"done,omitempty"`     // every module finished
}

type failure struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Reason string `json:"reason"`
	Memory bool   `json:"memory,omitempty"` // stopped for memory: maybe another's growth
}
