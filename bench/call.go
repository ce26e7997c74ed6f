package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
)

// callProject is the project of the call scenario: a trivial tool and one
// that builds and returns about 10 KB of JSON per call.
var callProject = map[string]string{
	"beeuni.yaml": "tools:\n  ping: tools/ping.ts\n  catalog: tools/catalog.ts\n  digest: tools/digest.ts\n",
	// digest parses about 10 KB of JSON a call, as a tool that reads a JSON
	// response does (response.json() is JSON.parse), and answers a little.
	"tools/digest.ts": `type Item = { id: number; sku: string; name: string; price: number; tags: string[]; stock: boolean }
const items: Item[] = []
for (let i = 0; i < 64; i++) {
  items.push({ id: i, sku: 'SKU-' + (1000 + i), name: 'Catalog item number ' + i, price: Math.round(i * 1.37 * 100) / 100,
    tags: ['bench', i % 2 ? 'odd' : 'even'], stock: i % 3 !== 0 })
}
const text = JSON.stringify({ page: 1, items }, null, 2)
export default {
  description: 'Digest the catalog: parse about 10 KB of JSON, answer the SKUs in stock.',
  parameters: { type: 'object', properties: {} },
  execute(): string {
    const v: { items: Item[] } = JSON.parse(text)
    return v.items.filter((x) => x.stock).map((x) => x.sku).join(',')
  },
}
`,
	"tools/ping.ts": `export default {
  description: 'Answer pong.',
  parameters: { type: 'object', properties: {} },
  execute(): string { return 'pong' },
}
`,
	"tools/catalog.ts": `type Item = { id: number; sku: string; name: string; price: number; tags: string[]; stock: boolean }
export default {
  description: 'List the catalog: about 10 KB of JSON.',
  parameters: { type: 'object', properties: { page: { type: 'number' } } },
  execute(args: { page?: number }): { page: number; items: Item[] } {
    const items: Item[] = []
    for (let i = 0; i < 64; i++) {
      items.push({ id: i, sku: 'SKU-' + (1000 + i), name: 'Catalog item number ' + i, price: Math.round(i * 1.37 * 100) / 100,
        tags: ['bench', i % 2 ? 'odd' : 'even'], stock: i % 3 !== 0 })
    }
    return { page: args.page ?? 1, items }
  },
}
`,
}

// callTools are the call scenario's tools with the arguments sent, and
// the bounds the issues set on calls/s with 16 clients, as ratios to each
// baseline (none: the figure is measured, not judged): issue 6's 1.2x
// Node and 0.9x the Go floor, issue 12's against Bun and its 0.8x floor
// for the trivial tool (its own line, so each issue's target shows).
var callTools = []struct {
	name, label, body string
	node, bun         float64
	floor             []float64
}{
	{"ping", "trivial", `{}`, 1.2, 1.0, []float64{0.9, 0.8}},
	{"catalog", "10 KB JSON", `{"page":1}`, 1.2, 0.8, []float64{0.9}},
	{"digest", "10 KB JSON in", `{}`, 0, 0, nil},
}

// callServer is one server under load: beeuni or a baseline.
type callServer struct {
	name   string
	url    string // base, without the route
	client *http.Client
}

func (r *run) call(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioCall, Baselines: []string{"node http", "bun.serve", "go net/http (floor)"},
		Title: fmt.Sprintf("HTTP tool calls on loopback, %s of load per figure per round", r.sizes.CallDuration)}
	dir, err := r.scratch("call")
	if err != nil {
		return nil, err
	}
	if err := writeTree(dir, callProject); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()

	_, bee, err := serveToolSet(ctx, &wg, dir, "bench-call", r.tmp)
	if err != nil {
		return nil, err
	}
	servers := []*callServer{{name: "beeuni", url: bee, client: newClient()}}

	// The floor answers exactly beeuni's bytes for each tool.
	answers := map[string][]byte{}
	for _, t := range callTools {
		status, body, err := post(ctx, servers[0].client, bee+"/beeuni/tools/"+t.name, []byte(t.body), nil)
		if err != nil || !okCall(status, body) {
			return nil, fmt.Errorf("call %s on beeuni: status %d, %v: %s", t.name, status, err, body)
		}
		answers[t.name] = body
	}
	sc.note("answers: trivial %d bytes, 10 KB JSON %d bytes, 10 KB JSON in %d bytes (same bytes from the Go floor)", len(answers["ping"]), len(answers["catalog"]), len(answers["digest"]))

	mods := map[string]string{}
	for _, t := range callTools {
		mods[t.name] = filepath.Join(dir, "tools", t.name+".ts")
	}
	var node *callServer
	if r.node == "" {
		sc.note("node not found on PATH: the Node.js baseline is skipped")
	} else {
		bundled, err := bundleForNode(dir, mods)
		if err != nil {
			return nil, err
		}
		ns, err := startNode(ctx, r.node, dir, "bench-call", bundled)
		if err != nil {
			return nil, err
		}
		defer ns.stop()
		node = &callServer{name: "node", url: ns.url, client: newClient()}
		if err := sameAnswers(ctx, node, answers); err != nil {
			return nil, err
		}
		sc.note("node answers beeuni's bytes for each tool; it builds context.env and context.signal on first read, as beeuni does (bench/js/call.cjs)")
	}
	servers = append(servers, node)

	var bun *callServer
	if r.bun == "" {
		sc.note("no Bun baseline: %s", r.bunWhy)
	} else {
		bs, err := startBun(ctx, r.bun, dir, "bench-call", mods)
		if err != nil {
			return nil, err
		}
		defer bs.stop()
		bun = &callServer{name: "bun", url: bs.url, client: newClient()}
		if err := sameAnswers(ctx, bun, answers); err != nil {
			return nil, err
		}
		sc.note("bun: Bun.serve running the TypeScript modules as they are (no bundle), calling them through the same bench/js/call.cjs as node; it answers beeuni's bytes")
	}
	servers = append(servers, bun)

	floor, err := serveFloor(ctx, &wg, answers)
	if err != nil {
		return nil, err
	}
	servers = append(servers, &callServer{name: "go", url: floor, client: newClient()})
	defer func() {
		for _, s := range servers {
			if s != nil {
				s.client.CloseIdleConnections()
			}
		}
	}()

	// figures[tool][clients][server] -> per-round rate, p50, p99
	type fig struct{ rate, p50, p99 []float64 }
	figures := map[string]map[int][]*fig{}
	for _, t := range callTools {
		figures[t.name] = map[int][]*fig{}
		for _, c := range r.sizes.CallClients {
			figures[t.name][c] = []*fig{{}, {}, {}, {}}
		}
	}
	warm := min(r.sizes.CallDuration/3, 300*time.Millisecond)
	for round := range r.cfg.Rounds {
		r.progress("call: round %d/%d", round+1, r.cfg.Rounds)
		for _, t := range callTools {
			for _, c := range r.sizes.CallClients {
				for i, s := range servers {
					if s == nil {
						continue
					}
					spec := callSpec{url: s.url + "/beeuni/tools/" + t.name, body: []byte(t.body), check: okCall}
					if round == 0 {
						runLoad(ctx, s.client, spec, c, warm, nil)
					}
					res := runLoad(ctx, s.client, spec, c, r.sizes.CallDuration, nil)
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					if f := res.failed(0, res.elapsed+time.Hour); f > 0 {
						return nil, fmt.Errorf("%s: %d of %d calls to %s failed; first: %s", s.name, f, len(res.samples), t.name, res.firstErr)
					}
					lat := res.okLatencies(0, res.elapsed+time.Hour)
					g := figures[t.name][c][i]
					g.rate = append(g.rate, res.rate())
					g.p50 = append(g.p50, ms(percentile(lat, 0.50)))
					g.p99 = append(g.p99, ms(percentile(lat, 0.99)))
				}
			}
		}
	}

	top := r.sizes.CallClients[len(r.sizes.CallClients)-1]
	for _, t := range callTools {
		for _, c := range r.sizes.CallClients {
			f := figures[t.name][c]
			name := fmt.Sprintf("%s, %d client", t.label, c)
			if c > 1 {
				name += "s"
			}
			rows := []*Row{
				sc.row(name, "calls/s", "higher", f[0].rate, f[1].rate, f[2].rate, f[3].rate),
				sc.row(name, "p50 ms", "lower", f[0].p50, f[1].p50, f[2].p50, f[3].p50),
				sc.row(name, "p99 ms", "lower", f[0].p99, f[1].p99, f[2].p99, f[3].p99),
			}
			for _, row := range rows {
				if node == nil {
					row.skip(0, "node not found on PATH")
				}
				if bun == nil {
					row.skip(1, r.bunWhy)
				}
			}
			if c != top {
				continue
			}
			rate := rows[0]
			if t.node > 0 {
				callTarget(sc, rate, 0, fmt.Sprintf("%s, %d clients: calls/s >= %.1fx Node's", t.label, c, t.node), t.node, "node not found on PATH")
			}
			if t.bun > 0 {
				callTarget(sc, rate, 1, fmt.Sprintf("%s, %d clients: calls/s >= %.1fx Bun's", t.label, c, t.bun), t.bun, r.bunWhy)
			}
			for _, bound := range t.floor {
				callTarget(sc, rate, 2, fmt.Sprintf("%s, %d clients: calls/s >= %.1fx the plain Go handler", t.label, c, bound), bound, "")
			}
		}
	}
	sc.note("beeuni: executor.Server with a tool set from LoadToolSet (default pool size), in this process; Go floor: net/http in this process; node, bun: child processes")
	sc.note("the load generator runs in this process for every server and shares the cores with the server under test")
	return sc, nil
}

// callTarget records whether rate's baseline i meets beeuni/baseline >= bound,
// or that it was skipped for why.
func callTarget(sc *Scenario, rate *Row, i int, what string, bound float64, why string) {
	b := rate.Baselines[i]
	if b.Stat == nil {
		sc.targetSkipped(what, why)
		return
	}
	sc.target(what, b.Ratio >= bound, "%.2fx (%s vs %s calls/s)", b.Ratio, fmtNum(rate.Beeuni.Median), fmtNum(b.Stat.Median))
}

// sameAnswers checks that a baseline answers beeuni's bytes for every tool:
// a fair baseline does the same work.
func sameAnswers(ctx context.Context, s *callServer, answers map[string][]byte) error {
	for _, t := range callTools {
		_, body, err := post(ctx, s.client, s.url+"/beeuni/tools/"+t.name, []byte(t.body), nil)
		if err != nil || !bytes.Equal(body, answers[t.name]) {
			return fmt.Errorf("call %s on %s: %v: answered %.300q, beeuni %.300q", t.name, s.name, err, body, answers[t.name])
		}
	}
	return nil
}

// serveToolSet serves the project in dir on a loopback port with the real
// executor server until ctx ends, and returns it and its base URL.
func serveToolSet(ctx context.Context, wg *sync.WaitGroup, dir, releaseID, tmp string) (*executor.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("listen on loopback: %w", err)
	}
	srv, err := executor.NewServer(executor.Options{ID: "bench", Listener: ln, Env: envSnapshot(),
		Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry()})
	if err != nil {
		ln.Close()
		return nil, "", err
	}
	ts, err := loadToolSet(ctx, dir, releaseID, bundle.New(nil), tmp)
	if err != nil {
		ln.Close()
		return nil, "", err
	}
	srv.Switch(ts)
	wg.Go(func() { _ = srv.Run(ctx) })
	return srv, "http://" + ln.Addr().String(), nil
}

// loadToolSet loads the project in dir as the executor does, and fails when
// a tool does not load.
func loadToolSet(ctx context.Context, dir, releaseID string, b *bundle.Bundler, tmp string) (*executor.ToolSet, error) {
	ts := executor.LoadToolSet(ctx, releaseID, dir, loader.HarnessDefault,
		jshost.Options{Bundler: b, Logger: slog.New(slog.DiscardHandler), TempDir: tmp})
	if f := ts.Failures(); len(f) > 0 {
		ts.Discard()
		return nil, fmt.Errorf("load the bench tools of %s: %s: %s", releaseID, f[0].Name, f[0].Reason)
	}
	return ts, nil
}

// serveFloor serves the plain Go handler: read the body, answer the bytes
// beeuni answers for that tool.
func serveFloor(ctx context.Context, wg *sync.WaitGroup, answers map[string][]byte) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("listen on loopback: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /beeuni/tools/{name}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		body, ok := answers[r.PathValue("name")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	wg.Go(func() { _ = srv.Serve(ln) })
	wg.Go(func() {
		<-ctx.Done()
		_ = srv.Close()
	})
	return "http://" + ln.Addr().String(), nil
}
