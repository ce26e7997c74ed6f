// Command genwebstreams writes js/streams.js, the WHATWG streams of the
// web platform: the web-streams-polyfill package (a port of the spec's
// reference implementation, tested against the web platform tests)
// bundled into one expression whose value is its exports
// (ReadableStream, WritableStream, TransformStream, their readers,
// writers and controllers, and the queuing strategies).
//
//	cd "$(mktemp -d)" && npm pack web-streams-polyfill@4.3.0 && tar xzf web-streams-polyfill-4.3.0.tgz
//	go run ./loader/jshost/web/internal/genwebstreams "$OLDPWD/package" > loader/jshost/web/js/streams.js
package main

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni/loader/jshost/internal/genjs"
)

func main() {
	genjs.Main("genwebstreams", "PACKAGE-DIR (the unpacked web-streams-polyfill package)", func(dir string) (string, error) {
		out, err := genjs.Bundle("loader/jshost/web/internal/genwebstreams", "The streams", dir, api.BuildOptions{
			// The ponyfill: it defines the classes and leaves the global alone.
			EntryPoints: []string{"dist/ponyfill.mjs"},
			Format:      api.FormatIIFE,
			GlobalName:  "__webStreams",
			Platform:    api.PlatformNeutral,
			Outfile:     "streams.js",
		})
		if err != nil {
			return "", err
		}
		// The IIFE's value, not a var: the host runs the file as a program
		// and takes the exports from its completion value.
		i := strings.Index(out, "var __webStreams = ")
		body := strings.TrimSuffix(strings.TrimSpace(out[i+len("var __webStreams = "):]), ";")
		return out[:i] + "(" + body + ")\n", nil
	})
}
