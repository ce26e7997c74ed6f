package bundle

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// nodeModules are the node: modules the host offers (jshost implements them).
var nodeModules = map[string]bool{
	"fs": true, "fs/promises": true, "path": true, "os": true, "crypto": true,
	"url": true, "buffer": true, "util": true, "events": true,
}

// nodeBuiltins are the other Node.js built-in names, refused by name when
// imported bare (an import of `http` means node:http, not a package).
var nodeBuiltins = map[string]bool{
	"assert": true, "assert/strict": true, "async_hooks": true, "child_process": true,
	"cluster": true, "console": true, "constants": true, "dgram": true,
	"diagnostics_channel": true, "dns": true, "dns/promises": true, "domain": true,
	"http": true, "http2": true, "https": true, "inspector": true, "module": true,
	"net": true, "perf_hooks": true, "process": true, "punycode": true,
	"querystring": true, "readline": true, "readline/promises": true, "repl": true,
	"stream": true, "stream/promises": true, "stream/web": true, "string_decoder": true,
	"sys": true, "timers": true, "timers/promises": true, "tls": true,
	"trace_events": true, "tty": true, "util/types": true, "v8": true, "vm": true,
	"wasi": true, "worker_threads": true, "zlib": true, "path/posix": true,
	"path/win32": true, "test": true, "sqlite": true, "sea": true,
}

// offered lists the node: modules in messages.
const offered = "node:fs, node:fs/promises, node:path, node:os, node:crypto, node:url, node:buffer, node:util, node:events"

// selfResolve marks the resolutions the plugin asks esbuild to do itself.
type selfResolve struct{}

var selfMark = &selfResolve{}

// guard resolves every import: node: modules we offer stay external, the
// others are refused by name, and anything that resolves outside root (a
// relative path climbing out, a package found in a node_modules above the
// project, a symlink out) is refused. root is "" for in-memory sources,
// which may import node: modules only.
func guard(root string) api.Plugin {
	return api.Plugin{Name: pluginName, Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.PluginData == selfMark || a.Kind == api.ResolveEntryPoint {
				return api.OnResolveResult{}, nil
			}
			name, isNode := strings.CutPrefix(a.Path, "node:")
			if isNode || nodeBuiltins[a.Path] || nodeModules[a.Path] {
				if !nodeModules[name] {
					return api.OnResolveResult{}, fmt.Errorf("node:%s is not available to tools (they may import %s)", name, offered)
				}
				return api.OnResolveResult{Path: "node:" + name, External: true}, nil
			}
			bare := isBare(a.Path)
			if root == "" {
				return api.OnResolveResult{}, fmt.Errorf("%q cannot be imported here: this module may import node: modules only", a.Path)
			}
			r := pb.Resolve(a.Path, api.ResolveOptions{
				Importer: a.Importer, Namespace: a.Namespace, ResolveDir: a.ResolveDir,
				Kind: a.Kind, PluginData: selfMark, With: a.With,
			})
			if len(r.Errors) > 0 {
				if bare {
					//lint:ignore ST1005 SPEC section 3: Node's own words, which modules and users match on
					return api.OnResolveResult{}, fmt.Errorf("Cannot find package '%s'", packageName(a.Path))
				}
				return api.OnResolveResult{Errors: r.Errors}, nil
			}
			if r.External || r.Namespace != "file" {
				return api.OnResolveResult{Path: r.Path, External: r.External, Namespace: r.Namespace}, nil
			}
			if !inside(root, r.Path) {
				if bare {
					//lint:ignore ST1005 SPEC section 3: Node's own words, which modules and users match on
					return api.OnResolveResult{}, fmt.Errorf("Cannot find package '%s'", packageName(a.Path))
				}
				return api.OnResolveResult{}, fmt.Errorf("%q resolves outside the project root: keep imported files inside the repository", a.Path)
			}
			return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, Suffix: r.Suffix}, nil
		})
	}}
}

const pluginName = "beeuni"

// isBare reports whether an import path names a package rather than a file.
func isBare(p string) bool {
	return !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && p != "." && p != ".." &&
		!strings.HasPrefix(p, "/") && !filepath.IsAbs(p)
}

// packageName is the package part of a bare import: "zod/v4" -> "zod",
// "@scope/pkg/x" -> "@scope/pkg".
func packageName(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if strings.HasPrefix(p, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// inside reports whether the absolute path p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// loaders maps the six module extensions (and JSON data) to esbuild loaders.
var loaders = map[string]api.Loader{
	".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS,
	".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS,
	".json": api.LoaderJSON,
}

// options are the build settings shared by files and in-memory sources.
// goja runs ES2020 and most later syntax but not async generators,
// `for await` or `using`: esbuild lowers those, and an error names what
// cannot be lowered.
func options(root string) api.BuildOptions {
	return api.BuildOptions{
		Bundle:            true,
		Write:             false,
		Format:            api.FormatCommonJS,
		Platform:          api.PlatformNode,
		Target:            api.ES2020,
		Supported:         map[string]bool{"async-generator": false, "for-await": false},
		Loader:            loaders,
		ResolveExtensions: []string{".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"},
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
		Metafile:          root != "",
		AbsWorkingDir:     root,
		Plugins:           []api.Plugin{guard(root)},
		Sourcemap:         api.SourceMapNone,
		TreeShaking:       api.TreeShakingTrue,
		LegalComments:     api.LegalCommentsNone,
	}
}

// errorLine turns esbuild's errors into one line a user can act on:
// `tools/x.ts:3:7: Expected ";" but found "}"`; the column is 1-based, as
// editors count. A missing package is the bare `Cannot find package 'x'`.
func errorLine(msgs []api.Message) string {
	m := msgs[0]
	text := m.Text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	line := text
	if m.Location != nil && !strings.HasPrefix(text, "Cannot find package '") {
		line = fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(m.Location.File), m.Location.Line, m.Location.Column+1, text)
	}
	if len(msgs) > 1 {
		line += fmt.Sprintf(" (and %d more errors)", len(msgs)-1)
	}
	return line
}
