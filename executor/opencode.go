package executor

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/beeuni/beeuni/internal/atomicfile"
	"github.com/beeuni/beeuni/loader"
)

// OpencodePluginFile is where, inside an opencode config folder, the executor
// on the default runtime writes its plugin: opencode loads every
// plugins/*.{js,ts} of each config folder it reads.
const OpencodePluginFile = "plugins/beeuni.js"

// opencodePluginSource is the plugin's code; the tool set is put in for
// opencodeDataMark, as one JSON value.
//
//go:embed opencode_plugin.js
var opencodePluginSource string

const opencodeDataMark = "__BEEUNI_DATA__"

// opencodePlugin writes the default runtime's plugin for each tool set the
// executor switches to (the reference: "a plugin the daemon writes, which
// forwards each call to the daemon").
type opencodePlugin struct {
	path          string // DIR/plugins/beeuni.js
	executor      string
	tokenRequired bool // the executor has a token: the plugin needs BEEUNI_EXECUTOR_TOKEN
	log           *slog.Logger
}

func newOpencodePlugin(dir, executor string, tokenRequired bool, log *slog.Logger) *opencodePlugin {
	return &opencodePlugin{path: filepath.Join(dir, filepath.FromSlash(OpencodePluginFile)), executor: executor,
		tokenRequired: tokenRequired, log: log.With("component", "opencode-plugin")}
}

// switched writes the plugin for ts. A failure is logged, not returned: the
// executor serves the set either way, and the next switch tries again.
func (o *opencodePlugin) switched(ts *ToolSet) {
	if err := o.write(ts); err != nil {
		o.log.Error("update the opencode plugin", "path", o.path, "release", ts.Release(), "error", err)
		return
	}
	o.log.Info("opencode plugin written", "path", o.path, "release", ts.Release())
}

// write renders the plugin for ts and replaces the file atomically, so an
// opencode starting now reads the previous plugin or this one, never a part.
func (o *opencodePlugin) write(ts *ToolSet) error {
	src, err := renderOpencodePlugin(ts, o.executor, o.tokenRequired)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return fmt.Errorf("write the opencode plugin: %w (choose another folder with --opencode-dir)", err)
	}
	if err := atomicfile.Write(o.path, src, 0o644); err != nil {
		return fmt.Errorf("write the opencode plugin %s: %w (opencode keeps the previous one; choose another folder with --opencode-dir)", o.path, err)
	}
	if err := excludeFromGit(o.path); err != nil {
		return fmt.Errorf("the opencode plugin %s is written, but git status may show it: %w (add its path to .git/info/exclude)", o.path, err)
	}
	return nil
}

// opencodeData is what the plugin knows of the tool set.
type opencodeData struct {
	Release       string              `json:"release"`
	Executor      string              `json:"executor"`
	TokenRequired bool                `json:"tokenRequired"`
	Tools         []opencodeTool      `json:"tools"`
	Hidden        map[string][]string `json:"hidden"` // agent -> tool names it may not see
}

type opencodeTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// renderOpencodePlugin returns the plugin's source for ts.
func renderOpencodePlugin(ts *ToolSet, executor string, tokenRequired bool) ([]byte, error) {
	data := opencodeDataFor(ts)
	data.Executor, data.TokenRequired = executor, tokenRequired
	// Go's JSON is valid JavaScript: it escapes U+2028 and U+2029 too.
	blob, err := json.MarshalIndent(data, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("render the opencode plugin: %w", err)
	}
	return []byte(strings.Replace(opencodePluginSource, opencodeDataMark, string(blob), 1)), nil
}

// opencodeDataFor lists the tools the plugin registers and, per agent of
// beeuni.yaml, the tools it hides from that agent.
//
// A module of harnesses/opencode/tools/ wins over the hosted tool of its
// name on the default runtime: opencode loads that module itself when the
// folder is one of its config folders, so the plugin leaves the name alone
// (a plugin's tool would replace opencode's own one of the same name).
func opencodeDataFor(ts *ToolSet) opencodeData {
	p := ts.Project()
	legacy := p.Legacy()
	d := opencodeData{Release: ts.Release(), Tools: []opencodeTool{}, Hidden: map[string][]string{}}
	for _, t := range ts.Tools() {
		if _, ok := legacy[t.Name]; ok {
			continue
		}
		d.Tools = append(d.Tools, opencodeTool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	// Every name beeuni knows: the harness's tools ("pty_*" stands for the
	// terminal plugin's, opencode matching it as a wildcard), the hosted
	// tools and the legacy folder's.
	names := append(loader.HarnessTools(), "pty_*")
	for _, t := range ts.Tools() {
		names = append(names, t.Name)
	}
	for n := range legacy {
		names = append(names, n)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, agent := range p.Agents() {
		var hidden []string
		for _, n := range names {
			if !p.Visible(agent, n) {
				hidden = append(hidden, n)
			}
		}
		if len(hidden) > 0 {
			d.Hidden[agent] = hidden
		}
	}
	return d
}
