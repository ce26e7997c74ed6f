// Package confine bounds what a process and every program it starts can
// reach, with the kernel's help: Landlock for files, TCP and IPC, and an
// address-space limit for memory. A process applies a Policy to itself
// before it touches anything untrusted (Apply), or applies it and then
// replaces itself with another program (Exec), the way a launcher confines
// a child before the child's code runs. A confinement is for good: nothing
// lifts it, and what the process starts inherits it.
//
// Where the kernel lacks what a Policy needs (Landlock with TCP rules, ABI
// 4), Apply refuses with an *UnavailableError rather than run unconfined.
package confine

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// MinABI is the Landlock ABI a Policy needs: files (1-3) and TCP connect
// and bind (4).
const MinABI = 4

// Policy is what a confined process may reach. Everything it does not
// list is refused by the kernel: files and folders, TCP connect and bind,
// other sockets than Unix ones, signals to and abstract sockets of
// processes outside (ABI 6 and later).
// Paths must be absolute; a missing one is skipped.
type Policy struct {
	// Read lists files and folders the process may read (and execute).
	Read []string `json:"read,omitempty"`
	// Write lists folders the process may read, create, change, rename
	// inside and delete in (and files it may read and change).
	Write []string `json:"write,omitempty"`
	// List lists folders the process may list (names only, and below)
	// without reading what they hold: Landlock's read_dir.
	List []string `json:"list,omitempty"`
	// WriteFiles lists files (not folders) the process may read and
	// write: the devices programs write to (/dev/null).
	WriteFiles []string `json:"write_files,omitempty"`
	// ConnectTCP lists the TCP ports the process may connect to; none by
	// default. Binding a TCP port is never allowed. Without AllowNetwork
	// the process may create no socket but Unix ones and plain TCP ones
	// (only with ConnectTCP): not UDP, raw, packet or Multipath TCP, which
	// Landlock does not hold to ports (a seccomp filter refuses them).
	ConnectTCP []uint16 `json:"connect_tcp,omitempty"`
	// AllowNetwork leaves the network as it is: no TCP rules, no socket
	// filter (a tool's own processes, which may fetch as the tool does).
	AllowNetwork bool `json:"allow_network,omitempty"`
	// MemoryBytes bounds the process's address space (RLIMIT_AS); 0
	// leaves it as it is. An allocation past it fails; the Go runtime
	// then ends the process ("out of memory").
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
	// KernelABI, when set, is taken as the kernel's Landlock ABI if it is
	// lower than the real one: it can only make Apply refuse or restrict
	// with an older preset, never loosen it. It lets tests take the path
	// of a kernel without Landlock (0) on a kernel that has it.
	KernelABI *int `json:"kernel_abi,omitempty"`
}

// UnavailableError is Apply's refusal on a kernel without the Landlock
// the Policy needs.
type UnavailableError struct {
	ABI int // what the kernel offers; 0: no Landlock at all
}

func (e *UnavailableError) Error() string {
	if e.ABI == 0 {
		return fmt.Sprintf("this kernel has no Landlock (it needs Landlock ABI %d, Linux 6.7 or later, with landlock in the lsm= boot list): refusing to run unconfined", MinABI)
	}
	return fmt.Sprintf("this kernel's Landlock ABI is %d; confining TCP needs ABI %d (Linux 6.7 or later): refusing to run unconfined", e.ABI, MinABI)
}

// ErrUnavailable matches every *UnavailableError with errors.Is.
var ErrUnavailable = errors.New("landlock unavailable")

func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// KernelABI is the Landlock ABI version of the running kernel, 0 when it
// has none (too old, or landlock not enabled at boot).
func KernelABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// abi is the version Apply relies on: the kernel's, or p.KernelABI when lower.
func (p Policy) abi() int {
	v := KernelABI()
	if p.KernelABI != nil && *p.KernelABI < v {
		v = max(*p.KernelABI, 0)
	}
	return v
}

// Check reports whether Apply would refuse p on this kernel, without
// confining anything.
func (p Policy) Check() error {
	if v := p.abi(); v < MinABI {
		return &UnavailableError{ABI: v}
	}
	return nil
}

// AddressSpace is the calling process's address space now (VmSize), so a
// Go program can set MemoryBytes to what it has plus what it may add: the
// Go runtime reserves far more than it uses (about 1.3 GiB before a Go
// program allocates anything).
func AddressSpace() (uint64, error) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, fmt.Errorf("confine: read the address space size: %w", err)
	}
	var pages uint64
	if _, err := fmt.Sscan(string(b), &pages); err != nil {
		return 0, fmt.Errorf("confine: parse /proc/self/statm %q: %w", b, err)
	}
	return pages * uint64(os.Getpagesize()), nil
}

// presets are go-landlock's configurations by ABI version, the newest last.
var presets = []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6,
	landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// Apply confines the calling process, every thread of it, and what it
// starts, for good. It sets the memory limit first, then the Landlock
// domain, then the socket filter. On error the process may be partly
// confined: end it.
func Apply(p Policy) error {
	if err := p.Check(); err != nil {
		return err
	}
	for _, path := range slices.Concat(p.Read, p.Write, p.WriteFiles, p.List) {
		if len(path) == 0 || path[0] != '/' {
			return fmt.Errorf("confine: %q is not an absolute path", path)
		}
	}
	if p.MemoryBytes > 0 {
		lim := syscall.Rlimit{Cur: p.MemoryBytes, Max: p.MemoryBytes}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			return fmt.Errorf("confine: limit the address space to %d bytes: %w", p.MemoryBytes, err)
		}
	}
	v := p.abi()
	cfg := presets[min(v, len(presets))-1]
	if v >= len(presets) || p.KernelABI == nil {
		// The newest preset, narrowed to what the kernel has: a newer
		// kernel restricts more (UDP from ABI 10).
		cfg = landlock.V11.BestEffort()
	}
	readDirs, readFiles := byKind(p.Read)
	writeDirs, writeFiles := byKind(p.Write)
	rules := []landlock.Rule{landlock.RODirs(readDirs...).IgnoreIfMissing(),
		landlock.ROFiles(readFiles...).IgnoreIfMissing(),
		landlock.RWDirs(writeDirs...).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles(append(writeFiles, p.WriteFiles...)...).IgnoreIfMissing(),
		landlock.PathAccess(llsys.AccessFSReadDir, p.List...).IgnoreIfMissing()}
	if p.AllowNetwork {
		cfg.HandledAccessNet = 0
	}
	for _, port := range p.ConnectTCP {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("confine: apply Landlock (ABI %d): %w", v, err)
	}
	if !p.AllowNetwork {
		return filterSockets(len(p.ConnectTCP) > 0)
	}
	return nil
}

// byKind splits paths into folders and other files (Landlock refuses a
// folder's rights on a file); a missing path counts as a folder, which
// the rules skip.
func byKind(paths []string) (dirs, files []string) {
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			files = append(files, path)
			continue
		}
		dirs = append(dirs, path)
	}
	return dirs, files
}

// Exec applies p, then replaces the process with the program at path
// (argv[0] included in argv) and env. It returns only on failure; after a
// failed Apply the process must end.
func Exec(p Policy, path string, argv, env []string) error {
	if err := Apply(p); err != nil {
		return err
	}
	if err := syscall.Exec(path, argv, env); err != nil {
		return fmt.Errorf("confine: run %s: %w", path, err)
	}
	return nil
}
