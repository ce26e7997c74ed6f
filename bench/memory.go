package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/beeuni/beeuni/executor"
)

// memoryFiles is a project of n tools sharing one helper module, as a
// project of that size typically is.
func memoryFiles(n int) map[string]string {
	files := map[string]string{"tools/lib/util.ts": "export const shout = (s: string): string => s.toUpperCase() + '!'\n"}
	var manifest strings.Builder
	manifest.WriteString("tools:\n")
	for i := range n {
		name := fmt.Sprintf("t%02d", i)
		fmt.Fprintf(&manifest, "  %s: tools/%s.ts\n", name, name)
		files["tools/"+name+".ts"] = fmt.Sprintf(`import { shout } from './lib/util'
export default {
  description: 'Tool %d: shout the query.',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  async execute(args: { q?: string }): Promise<string> { return shout(args.q ?? 'tool %d') },
}
`, i, i)
	}
	files["beeuni.yaml"] = manifest.String()
	return files
}

func (r *run) memory(ctx context.Context) (*Scenario, error) {
	n := r.sizes.MemoryTools
	sc := &Scenario{Name: ScenarioMemory, Baselines: []string{"idle node http, same modules", "idle bun.serve, same modules"},
		Title: fmt.Sprintf("RSS of an idle executor process with %d loaded tools, after one call each and %s idle", n, r.sizes.MemoryIdle)}
	bin, err := r.executorBinary()
	if err != nil {
		return nil, err
	}
	dir, err := r.scratch("memory")
	if err != nil {
		return nil, err
	}
	if bin, err = installedCopy(bin, dir); err != nil {
		return nil, err
	}
	files := memoryFiles(n)
	f, err := startFleet(ctx, dir, files)
	if err != nil {
		return nil, err
	}
	defer f.close()
	pub, err := f.pubKeyFile()
	if err != nil {
		return nil, err
	}
	// The JavaScript baselines serve the same modules: Node their esbuild
	// bundles, Bun the TypeScript files as they are.
	src := filepath.Join(dir, "js-src")
	mods := map[string]string{}
	var bundled map[string]string
	if r.node != "" || r.bun != "" {
		if err := writeTree(src, files); err != nil {
			return nil, err
		}
		for i := range n {
			name := fmt.Sprintf("t%02d", i)
			mods[name] = filepath.Join(src, "tools", name+".ts")
		}
	}
	if r.node != "" {
		if bundled, err = bundleForNode(src, mods); err != nil {
			return nil, err
		}
	}
	// per server (beeuni, node, bun): RSS, VmHWM and RssAnon per round
	var rss, hwm, anon [3][]float64
	for round := range r.cfg.Rounds {
		r.progress("memory: round %d/%d", round+1, r.cfg.Rounds)
		procs, stop, err := r.memoryProcesses(ctx, bin, f, pub, filepath.Join(dir, fmt.Sprintf("exec%d", round)), src, bundled, mods)
		if err == nil {
			err = r.memoryRound(ctx, f, procs, n)
		}
		for i, p := range procs {
			if err != nil {
				break
			}
			if p.pid == 0 {
				continue
			}
			var m procMemory
			if m, err = procMem(p.pid); err == nil {
				rss[i], hwm[i], anon[i] = append(rss[i], m.rss), append(hwm[i], m.hwm), append(anon[i], m.anon)
			}
		}
		stop()
		if err != nil {
			return nil, err
		}
	}
	rows := []*Row{
		sc.row(fmt.Sprintf("%d tools, idle", n), "RSS MB", "lower", rss[0], rss[1], rss[2]),
		sc.row(fmt.Sprintf("%d tools, peak", n), "VmHWM MB", "lower", hwm[0], hwm[1], hwm[2]),
		sc.row(fmt.Sprintf("%d tools, idle", n), "RssAnon MB", "lower", anon[0], anon[1], anon[2]),
	}
	for _, row := range rows {
		if r.node == "" {
			row.skip(0, "node not found on PATH")
		}
		if r.bun == "" {
			row.skip(1, r.bunWhy)
		}
	}
	const what = "idle executor with 20 tools under 60 MB"
	if n == 20 {
		sc.target(what, rows[0].Beeuni.Median < 60, "%s MB (worst round %s MB)", fmtNum(rows[0].Beeuni.Median), fmtNum(rows[0].Beeuni.Max))
	} else {
		sc.targetSkipped(what, fmt.Sprintf("run with %d tools", n))
	}
	sc.note("beeuni: `%s executor` as a child process against the fleet's NATS (the controller publishes the %d-tool project), VmRSS from /proc; run from a copy of the binary written with ordinary writes, as an installed binary (one the Go linker has just written maps about 20 MB more of its file pages)", filepath.Base(bin), n)
	sc.note("RssAnon: the process's own pages (heap, stacks), without the file pages of its binary that RSS also counts: those are shared by every process of the binary and the kernel may drop them")
	sc.note("node: the call scenario's Node.js http server with the same %d modules bundled by esbuild, each called once, same idle time", n)
	sc.note("bun: the call scenario's Bun.serve server with the same %d TypeScript modules (no bundle), each called once, same idle time", n)
	return sc, nil
}

// memProc is one server of a memory round: its URL and process id (0 for
// a baseline not run).
type memProc struct {
	url string
	pid int
	log *limitedWriter // the executor's output, nil for the baselines
}

// memoryProcesses starts the executor process and the JavaScript baselines
// present; stop ends them all.
func (r *run) memoryProcesses(ctx context.Context, bin string, f *fleet, pub, data, src string, bundled, mods map[string]string) ([3]memProc, func(), error) {
	var procs [3]memProc
	var stops []func()
	stop := func() {
		for _, s := range stops {
			s()
		}
	}
	ex, err := startExecutorProcess(ctx, bin, f, pub, data, "memory", false)
	if err != nil {
		return procs, stop, err
	}
	stops = append(stops, ex.stop)
	procs[0] = memProc{url: ex.url, pid: ex.cmd.Process.Pid, log: ex.log}
	if r.node != "" {
		ns, err := startNode(ctx, r.node, src, "node", bundled)
		if err != nil {
			return procs, stop, err
		}
		stops = append(stops, ns.stop)
		procs[1] = memProc{url: ns.url, pid: ns.pid()}
	}
	if r.bun != "" {
		bs, err := startBun(ctx, r.bun, src, "bun", mods)
		if err != nil {
			return procs, stop, err
		}
		stops = append(stops, bs.stop)
		procs[2] = memProc{url: bs.url, pid: bs.pid()}
	}
	return procs, stop, nil
}

// memoryRound waits until the executor (procs[0]) serves the release with
// every tool, calls each tool once on every server, then lets them idle.
func (r *run) memoryRound(ctx context.Context, f *fleet, procs [3]memProc, n int) error {
	want := f.ctl.Status().Desired
	var st executor.Status
	client := newClient()
	defer client.CloseIdleConnections()
	ok := waitUntil(ctx, 2*time.Minute, 10*time.Millisecond, func() bool {
		resp, err := client.Get(procs[0].url + "/beeuni/status")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		st = executor.Status{}
		return json.NewDecoder(resp.Body).Decode(&st) == nil && st.Release == want && len(st.Tools) == n
	})
	if !ok {
		return fmt.Errorf("the executor process does not serve release %s with %d tools after two minutes (status %+v; log: %s)",
			want, n, st, procs[0].log.String())
	}
	for i := range n {
		for _, p := range procs {
			if p.url == "" {
				continue
			}
			status, body, err := post(ctx, client, fmt.Sprintf("%s/beeuni/tools/t%02d", p.url, i), []byte(`{"q":"x"}`), nil)
			if err != nil || !okCall(status, body) {
				return fmt.Errorf("call t%02d on %s: status %d, %v: %s", i, p.url, status, err, body)
			}
		}
	}
	client.CloseIdleConnections()
	select {
	case <-time.After(r.sizes.MemoryIdle):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// procMemory is a process's memory in MB, from /proc/PID/status.
type procMemory struct{ rss, hwm, anon float64 }

// procMem reads VmRSS, VmHWM and RssAnon of pid.
func procMem(pid int) (procMemory, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procMemory{}, fmt.Errorf("read the memory of process %d: %w (the memory scenario needs Linux /proc)", pid, err)
	}
	mb := func(key string) float64 { return float64(statusKB(b, key)) / 1024 }
	return procMemory{rss: mb("VmRSS"), hwm: mb("VmHWM"), anon: mb("RssAnon")}, nil
}

// executorProcess is `beeuni executor` running as a child process.
type executorProcess struct {
	cmd  *exec.Cmd
	url  string
	log  *limitedWriter
	done chan error
}

// startExecutorProcess starts `bin executor`; with noHTTP its API listens
// on a port the kernel picks and p.url is empty (no port to race for).
func startExecutorProcess(ctx context.Context, bin string, f *fleet, pub, data, id string, noHTTP bool) (*executorProcess, error) {
	addr := "127.0.0.1:0"
	if !noHTTP {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, err
		}
		addr = ln.Addr().String()
		ln.Close() // the child binds it again at once; the port stays free meanwhile in practice
	}
	cmd := exec.Command(bin, "executor", "--id", id, "--listen", addr, "--data", data,
		"--nats", f.nats.ClientURL(), "--project", benchProject, "--trust-key", pub)
	cmd.Env = append(os.Environ(), "BEEUNI_LOG_LEVEL=warn", "BEEUNI_EXECUTOR_TOKEN=")
	p := &executorProcess{cmd: cmd, log: &limitedWriter{}, done: make(chan error, 1)}
	if !noHTTP {
		p.url = "http://" + addr
	}
	cmd.Stdout = p.log
	cmd.Stderr = p.log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s executor: %w", bin, err)
	}
	go func() { p.done <- cmd.Wait() }()
	return p, nil
}

// stop ends the executor as an operator would (SIGTERM), killing it when it
// does not end within ten seconds.
func (p *executorProcess) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// installedCopy copies bin into dir with ordinary writes, for the executor
// to run from as an installed binary runs (a package, an image layer). A
// binary the Go linker has just written maps more of its file pages into
// every process that runs it: 67.8 MB RSS against 47.1 MB for the same
// binary once the page cache was dropped and it was read again, or once
// copied (2026-12-03; RssAnon, the process's own pages, 15.9 MB in all).
func installedCopy(bin, dir string) (string, error) {
	in, err := os.Open(bin)
	if err != nil {
		return "", fmt.Errorf("copy the beeuni binary: %w", err)
	}
	defer in.Close()
	dst := filepath.Join(dir, filepath.Base(bin))
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return "", fmt.Errorf("copy the beeuni binary: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return "", fmt.Errorf("copy the beeuni binary to %s: %w", dst, err)
	}
	if err := out.Close(); err != nil {
		return "", fmt.Errorf("copy the beeuni binary to %s: %w", dst, err)
	}
	return dst, nil
}
