package bench

import (
	"bytes"
	"maps"
	"net/http"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// contextTool reports how execute's context behaves: which keys it has, that
// env and signal are accessors until read and data properties after, and
// that assigning one replaces it. beeuni and the Node.js baseline must
// answer it with the same bytes.
const contextTool = `export default {
  description: 'Describe the call context.',
  parameters: { type: 'object', properties: {} },
  execute(_args: object, c: any) {
    const kind = (name: string) => {
      const d = Object.getOwnPropertyDescriptor(c, name)
      return d === undefined ? 'absent' : d.get ? 'accessor' : 'data'
    }
    const out: Record<string, unknown> = { keys: Object.keys(c), session: c.sessionId, agent: c.agent }
    out.before = [kind('env'), kind('signal')]
    out.path = typeof c.env.PATH
    out.sameEnv = c.env === c.env
    out.aborted = c.signal.aborted
    out.after = [kind('env'), kind('signal')]
    c.env = { x: 1 }
    out.assigned = [c.env.x, kind('env')]
    return out
  },
}
`

// TestNodeBaselineAnswersLikeBeeuni runs the call scenario's tools and the
// context tool on beeuni's executor server and on the Node.js baseline:
// the answers are the same bytes, so the baseline does the same work.
func TestNodeBaselineAnswersLikeBeeuni(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found on PATH: the Node.js baseline is not checked")
	}
	answersLikeBeeuni(t, "node", func(dir string, mods map[string]string) (*jsServer, error) {
		bundled, err := bundleForNode(dir, mods)
		if err != nil {
			return nil, err
		}
		return startNode(t.Context(), node, dir, "bench-call", bundled)
	})
}

// answersLikeBeeuni serves the call scenario's tools and the context tool
// on beeuni's executor server and on the baseline start starts (given the
// project folder and each tool's TypeScript file), and checks that both
// answer the same statuses and bytes.
func answersLikeBeeuni(t *testing.T, name string, start func(dir string, mods map[string]string) (*jsServer, error)) {
	t.Helper()
	dir := t.TempDir()
	files := maps.Clone(callProject)
	files["beeuni.yaml"] += "  ctx: tools/ctx.ts\n"
	files["tools/ctx.ts"] = contextTool
	if err := writeTree(dir, files); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	ctx := t.Context()
	_, bee, err := serveToolSet(ctx, &wg, dir, "bench-call", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mods := map[string]string{}
	for _, tool := range []string{"ping", "catalog", "ctx"} {
		mods[tool] = filepath.Join(dir, "tools", tool+".ts")
	}
	js, err := start(dir, mods)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(js.stop)
	client := newClient()
	t.Cleanup(client.CloseIdleConnections)
	for _, tc := range []struct{ tool, body string }{
		{"ping", `{}`}, {"catalog", `{"page":2}`}, {"ctx", ``}, {"nope", `{}`}, {"ping", `[`},
	} {
		var got [2][]byte
		var status [2]int
		for i, base := range []string{bee, js.url} {
			status[i], got[i], err = post(ctx, client, base+"/beeuni/tools/"+tc.tool, []byte(tc.body), nil)
			if err != nil {
				t.Fatal(err)
			}
		}
		// A bad body's message is beeuni's own (it names the parse error).
		if status[0] != status[1] || (status[0] != http.StatusBadRequest && !bytes.Equal(got[0], got[1])) {
			t.Errorf("%s %s: beeuni %d %s\n%s %d %s", tc.tool, tc.body, status[0], got[0], name, status[1], got[1])
		}
	}
}
