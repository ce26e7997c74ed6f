package modcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/beeuni/beeuni/internal/confine"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
)

// Exit codes of the check process besides 0.
const (
	exitBadRequest = 2
	exitRefused    = 3
)

// maxRequest bounds the request the child reads.
const maxRequest = 16 << 20

// zoneinfo is read by Date and Intl; nothing else outside the release is.
var systemReads = []string{"/usr/share/zoneinfo"}

// Serve is the body of `beeuni internal check`: read one request from
// stdin, confine this process, load every module, and write one line per
// event to stdout. It returns the process's exit code. It never holds
// more than the request gives it: the release folder and a temp folder.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &lineWriter{w: stdout}
	if os.Getenv(envWarm) != "" {
		warmUp(ctx)
	}
	var req request
	if err := json.NewDecoder(io.LimitReader(stdin, maxRequest)).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "beeuni internal check: read the request on stdin: %v\n", err)
		return exitBadRequest
	}
	if !filepath.IsAbs(req.Root) || !filepath.IsAbs(req.Temp) {
		fmt.Fprintf(stderr, "beeuni internal check: root %q and temp %q must be absolute paths\n", req.Root, req.Temp)
		return exitBadRequest
	}
	p := confine.Policy{Read: append([]string{req.Root}, systemReads...), Write: []string{req.Temp}, KernelABI: req.KernelABI}
	if req.MemoryBytes > 0 {
		// What the modules may allocate, above what the runtime holds now.
		base, err := confine.AddressSpace()
		if err != nil {
			fmt.Fprintf(stderr, "beeuni internal check: %v\n", err)
			return exitBadRequest
		}
		p.MemoryBytes = base + req.MemoryBytes
	}
	if err := confine.Apply(p); err != nil {
		out.write(line{Refused: err.Error()})
		fmt.Fprintf(stderr, "beeuni internal check: %v\n", err)
		return exitRefused
	}
	out.write(line{Confined: confine.KernelABI()})

	opts := jshost.Options{Root: req.Root, Directory: req.Root, TempDir: req.Temp, Bundler: bundle.New(nil),
		Logger: slog.New(slog.DiscardHandler), PoolSize: 1,
		MaxMemory: req.MemoryBytes / 2, CallMemory: req.MemoryBytes / 2,
		NoSpawn: "the controller's module checks start no processes: start them in execute, not when the module loads"}
	// All at once: a module that never finishes holds up no other.
	var wg sync.WaitGroup
	for _, s := range req.Specs {
		wg.Go(func() {
			set := jshost.Load(ctx, []jshost.Spec{{Name: s.Name, Source: s.Source, Path: s.Path}}, opts)
			for _, f := range set.Failures() {
				out.write(line{Failure: &failure{Name: f.Name, Source: f.Source, Reason: f.Reason, Memory: f.Memory}})
			}
			for _, t := range set.Tools() {
				ws := &wireSpec{Name: t.Name, Source: t.Source, Path: s.Path}
				if m, ok := set.Meta(t.Name); ok {
					ws.Meta = &m
				}
				out.write(line{Tool: ws})
			}
			// Not closed: the process ends once every module has, and a
			// Close waits for the heap watchdog's next tick (up to 10 ms).
		})
	}
	wg.Wait()
	out.write(line{Done: true})
	return 0
}

// envWarm, set in a spare check process's environment, has it warm up
// before it reads its request.
const envWarm = "BEEUNI_CHECK_WARM"

// warmModule is loaded before the request is read: it is the binary's own
// code, and a process started ahead (Options.Spare) has then paged in and
// set up esbuild, goja and the host once, so the check itself is quick.
const warmModule = `import { join } from 'node:path'
export default {
  description: 'Warm up the check process.',
  parameters: { type: 'object', properties: {} },
  execute(): string { return join('a', 'b') },
}
`

func warmUp(ctx context.Context) {
	dir, err := os.Getwd()
	if err != nil || !filepath.IsAbs(dir) {
		return
	}
	opts := jshost.Options{Root: dir, Directory: dir, TempDir: dir, Bundler: bundle.New(nil),
		Logger: slog.New(slog.DiscardHandler), PoolSize: 1, NoSpawn: "warm-up"}
	jshost.Load(ctx, []jshost.Spec{{Name: "warm", Source: "warm.ts", Code: []byte(warmModule)}}, opts).Close()
}

// lineWriter writes whole lines, unbuffered: a line written is out even if
// the process dies the next instant.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) write(v line) {
	b, _ := json.Marshal(v)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
}
