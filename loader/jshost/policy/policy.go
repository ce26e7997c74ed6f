// Package policy is the tool host's capability policy: which paths tool
// code may read or write, which addresses it may dial and which
// environment variables it sees. goja has no I/O of its own, so every
// capability is a binding of ours; each binding that touches the outside
// asks one *Policy (rt.Host.Policy) before it acts, with the path,
// address or name it is about to use, as Deno's permissions do. A refusal
// is an *Error that names what was asked and what is allowed.
//
// # Paths
//
// Every path is made absolute, cleaned and resolved (symlinks followed;
// for a path that does not exist yet, its deepest existing parent) before
// the rules decide, and the binding acts on the resolved path. Following
// a symlink reads it: a link inside a denied folder (/proc/self, or
// /dev/fd whose target is there) is refused as a read of that folder.
// The rules are folders with an access level, and the longest folder that
// holds the path decides:
//
//   - "/" is readable;
//   - the workspace (context.directory) and the temp folder are writable;
//   - the release folder the tools run from is read-only;
//   - beeuni's own state (Config.Private: data folders, key files) and its
//     own process (/proc/self, /proc/thread-self, /proc/<pid> of this
//     process and its threads, of any process running the same binary)
//     are neither readable nor writable;
//   - --fs-read and --fs-write (Config.Read, Config.Write) add folders:
//     see ParseFlags.
//
// Operator flags can never reach beeuni's own state: a flag naming a path
// that the rules give to beeuni's state is refused by New, and a flag on a
// parent folder does not reach into it (the longer folder decides).
//
// # Child processes
//
// A launcher confines a process a tool starts with the same rules, by
// Landlock, from Roots: the folders it may read and the folders it may
// write, expanded so that none holds a denied path.
//
// # Checking is not enough alone
//
// A path is checked, then used; a tool that swaps a folder for a symlink
// in between (from another runtime) could redirect the use. The window is
// one system call long; the Landlock confinement of child processes does
// not have it.
package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Access is what an operation does to a path.
type Access uint8

const (
	Read  Access = 1 << iota // read content or metadata (open, stat, readdir, readlink)
	Write                    // create, change or remove (write, mkdir, rename, unlink, chmod, utimes, symlink)
	// NoFollow acts on the last component itself (lstat, readlink, unlink,
	// rename, rm, symlink): a symlink there is not followed.
	NoFollow
	// Tree acts on everything a folder holds (rm -r, rename of a folder):
	// every rule inside it must allow the access too.
	Tree
)

// Config is what the operator and the host decide. Zero fields are
// defaults; New fills what is missing.
type Config struct {
	Workspace string   // writable: context.directory
	TempDir   string   // writable (default os.TempDir())
	ReadOnly  []string // readable, never writable: the release folder
	// Private is beeuni's own state: data folders and key files. Tools may
	// neither read nor write it, whatever the flags.
	Private []string
	// Read and Write are --fs-read and --fs-write (see ParseFlags).
	Read, Write string
	// DenyDial are the addresses beeuni itself listens on (host:port): the
	// executor's API, the controller, NATS. Tools may not dial them, by
	// any local address.
	DenyDial []string
	// HideEnv are environment variable names tools never see, besides
	// the built-in ones (HiddenEnv); HideValues are secret values (tokens):
	// a variable holding one is hidden whatever its name.
	HideEnv    []string
	HideValues []string
}

// level is what a rule grants.
type level uint8

const (
	none level = iota
	readOnly
	readWrite
)

// origin says why a rule is there, for messages.
type origin uint8

const (
	fromDefault origin = iota
	fromHost           // workspace, temp, release folder
	fromPrivate        // beeuni's own state
	fromFlag
)

type rule struct {
	path   string
	level  level
	origin origin
	flag   string // the flag's text, for fromFlag
}

// Policy decides. It is immutable and safe for concurrent use.
type Policy struct {
	rules     []rule // longest path first
	writable  []string
	workspace string // where relative paths start
	pid       int
	dial      dialRules
	env       envRules
}

// New checks cfg and makes the policy. Its errors name the flag to fix.
func New(cfg Config) (*Policy, error) {
	if cfg.TempDir == "" {
		cfg.TempDir = os.TempDir()
	}
	p := &Policy{pid: os.Getpid(), workspace: cfg.Workspace}
	if p.workspace == "" {
		p.workspace, _ = os.Getwd()
	}
	p.workspace = canonical(p.workspace)
	p.rules = append(p.rules, rule{path: "/", level: readOnly})
	for _, d := range []string{cfg.Workspace, cfg.TempDir} {
		if d != "" {
			p.rules = append(p.rules, rule{path: canonical(d), level: readWrite, origin: fromHost})
		}
	}
	for _, d := range cfg.ReadOnly {
		p.rules = append(p.rules, rule{path: canonical(d), level: readOnly, origin: fromHost})
	}
	for _, d := range cfg.Private {
		if d != "" {
			p.rules = append(p.rules, rule{path: canonical(d), level: none, origin: fromPrivate})
		}
	}
	// As they are: resolving them would name this process's pid only.
	for _, d := range []string{"/proc/self", "/proc/thread-self", fmt.Sprintf("/proc/%d", p.pid)} {
		p.rules = append(p.rules, rule{path: d, level: none, origin: fromPrivate})
	}
	flags, err := ParseFlags(cfg.Read, cfg.Write)
	if err != nil {
		return nil, err
	}
	sortRules(p.rules)
	for _, f := range flags {
		if r := p.decide(f.path); r.origin == fromPrivate {
			return nil, fmt.Errorf("%s %s: that is beeuni's own state (%s): tools may never reach it", f.flag, f.path, r.path)
		}
	}
	// A flag overrides a default or host rule on the same folder.
	for _, f := range flags {
		p.rules = slices.DeleteFunc(p.rules, func(r rule) bool { return r.path == f.path && r.origin != fromPrivate })
	}
	p.rules = append(p.rules, flags...)
	sortRules(p.rules)
	for _, r := range p.rules {
		if r.level == readWrite {
			p.writable = append(p.writable, r.path)
		}
	}
	slices.Sort(p.writable)
	if p.dial, err = newDialRules(cfg.DenyDial); err != nil {
		return nil, err
	}
	p.env = newEnvRules(cfg.HideEnv, cfg.HideValues)
	return p, nil
}

// sortRules puts longer paths first, so the first match is the longest.
func sortRules(rs []rule) {
	slices.SortStableFunc(rs, func(a, b rule) int { return len(b.path) - len(a.path) })
}

// ParseFlags reads --fs-read and --fs-write. Each is a comma-separated
// list of paths (relative ones are taken from the current folder):
//
//	--fs-read  PATH   tools may read PATH (to re-allow inside a denied folder)
//	--fs-read  -PATH  tools may neither read nor write PATH
//	--fs-write PATH   tools may read and write PATH
//	--fs-write -PATH  tools may read PATH but not write it
//
// The longest folder that holds a path decides, so
// `--fs-read -/home,/home/shared` hides /home except /home/shared.
func ParseFlags(read, write string) ([]rule, error) {
	var out []rule
	for _, f := range []struct {
		name, list  string
		allow, deny level
	}{{"--fs-read", read, readOnly, none}, {"--fs-write", write, readWrite, readOnly}} {
		for item := range strings.SplitSeq(f.list, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			lv := f.allow
			if p, ok := strings.CutPrefix(item, "-"); ok {
				item, lv = p, f.deny
			}
			if item == "" {
				return nil, fmt.Errorf("%s: %q has no path after the '-': write -PATH to deny PATH", f.name, f.list)
			}
			abs, err := filepath.Abs(item)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", f.name, item, err)
			}
			out = append(out, rule{path: canonical(abs), level: lv, origin: fromFlag, flag: f.name})
		}
	}
	return out, nil
}

// canonical is p absolute, clean and with its symlinks resolved, so a
// rule matches the resolved paths it is compared with.
func canonical(p string) string {
	if !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	r, _, err := resolve(filepath.Clean(p), true)
	if err != nil {
		return filepath.Clean(p)
	}
	return r
}

// decide returns the rule of the longest folder holding path (resolved).
func (p *Policy) decide(path string) rule {
	for _, r := range p.rules {
		if within(path, r.path) {
			return r
		}
	}
	return rule{path: "/", level: readOnly}
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	if dir == "/" {
		return true
	}
	return path == dir || (strings.HasPrefix(path, dir) && path[len(dir)] == '/')
}

// CheckRead resolves path and allows reading it (content or metadata);
// it returns the resolved path, which the caller acts on.
func (p *Policy) CheckRead(path string) (string, error) { return p.Check(path, Read) }

// CheckWrite resolves path and allows creating, changing or removing it.
func (p *Policy) CheckWrite(path string) (string, error) { return p.Check(path, Write) }

// Check resolves path and decides access a; it returns the resolved path
// (with NoFollow, the last component is kept as it is). A relative path
// is taken from the workspace. The error is an *Error.
func (p *Policy) Check(path string, a Access) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.workspace, path)
	}
	asked := filepath.Clean(path)
	resolved, links, err := resolve(asked, a&NoFollow == 0)
	if err != nil {
		return "", &Error{Path: asked, Access: a, Reason: err.Error(), policy: p}
	}
	for _, l := range links {
		if why, ok := p.refuse(l, Read); !ok {
			return "", &Error{Path: asked, Resolved: l, Access: Read, Reason: why, policy: p}
		}
	}
	if why, ok := p.refuse(resolved, a); !ok {
		return "", &Error{Path: asked, Resolved: resolved, Access: a, Reason: why, policy: p}
	}
	if a&Tree != 0 {
		for _, r := range p.rules {
			if r.path != resolved && within(r.path, resolved) {
				if why, ok := p.refuse(r.path, a&^Tree); !ok {
					return "", &Error{Path: asked, Resolved: r.path, Access: a, Reason: why + " (it is inside)", policy: p}
				}
			}
		}
	}
	return resolved, nil
}

// refuse decides access a to a resolved path: ok, or why not.
func (p *Policy) refuse(path string, a Access) (why string, ok bool) {
	r := p.decide(path)
	if r.origin != fromPrivate && p.ownProcess(path) {
		r = rule{path: path, level: none, origin: fromPrivate}
	}
	switch {
	case a&Write != 0 && r.level == readWrite, a&Write == 0 && r.level >= readOnly:
		return "", true
	}
	verb := "read"
	if a&Write != 0 {
		verb = "write"
	}
	switch r.origin {
	case fromPrivate:
		return "tools may not " + verb + " beeuni's own state", false
	case fromFlag:
		return fmt.Sprintf("%s -%s denies it", r.flag, r.path), false
	case fromHost:
		return "the release folder is read-only", false
	}
	return "", false // a write outside the writable folders: the allowed list says it all
}

// Writable lists the folders tools may write, for messages.
func (p *Policy) Writable() []string { return slices.Clone(p.writable) }

// Error is a refusal. Node's shape is made from it by the binding:
// code EACCES, errno -13, syscall, path.
type Error struct {
	Path     string // the path as asked (absolute, clean)
	Resolved string // the path the rules refused, when it differs (a symlink's target, a link on the way)
	Access   Access
	Reason   string // why, without the allowed list
	policy   *Policy
}

// ErrDenied is what every *Error matches with errors.Is.
var ErrDenied = errors.New("permission denied")

func (e *Error) Is(target error) bool { return target == ErrDenied }

// Error is "permission denied, read '/data/signing.key': ...".
func (e *Error) Error() string {
	verb := "read"
	if e.Access&Write != 0 {
		verb = "write"
	}
	return e.Message(verb)
}

// Message is Node's message for syscall: "EACCES: permission denied, open
// '/data/signing.key': tools may not read beeuni's own state; tools may
// write under /work/repo and /tmp".
func (e *Error) Message(syscall string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "EACCES: permission denied, %s '%s'", syscall, e.Path)
	if e.Resolved != "" && e.Resolved != e.Path {
		fmt.Fprintf(&b, " (resolves to %s)", e.Resolved)
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
		b.WriteString("; ")
	} else {
		b.WriteString(": ")
	}
	b.WriteString(e.policy.allowed())
	return b.String()
}

// allowed says what tools may do, for messages.
func (p *Policy) allowed() string {
	if p == nil {
		return "see the --fs-read and --fs-write flags"
	}
	w := p.writable
	switch len(w) {
	case 0:
		return "tools may write nowhere"
	case 1:
		return "tools may write under " + w[0]
	}
	return "tools may write under " + strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
