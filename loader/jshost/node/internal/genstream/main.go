// Command genstream writes js/stream.js, node:stream for tool modules:
// the readable-stream package (Node's own streams, published for other
// runtimes) bundled into one CommonJS body whose few imports (buffer,
// events, process, string_decoder, abort-controller) the host answers.
//
//	cd "$(mktemp -d)" && npm pack readable-stream@4.8.0 && tar xzf readable-stream-4.8.0.tgz
//	go run ./loader/jshost/node/internal/genstream "$OLDPWD/package" > loader/jshost/node/js/stream.js
package main

import (
	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni/loader/jshost/internal/genjs"
)

func main() {
	genjs.Main("genstream", "PACKAGE-DIR (the unpacked readable-stream package)", func(dir string) (string, error) {
		return genjs.Bundle("loader/jshost/node/internal/genstream", "node:stream", dir, api.BuildOptions{
			EntryPoints: []string{"lib/stream.js"},
			Format:      api.FormatCommonJS,
			Platform:    api.PlatformNeutral,
			External:    []string{"buffer", "events", "process", "process/", "string_decoder", "abort-controller"},
			MainFields:  []string{"main"},
			Outfile:     "stream.js",
		})
	})
}
