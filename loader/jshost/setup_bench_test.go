package jshost

import (
	"log/slog"
	"testing"

	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/dop251/goja"
)

// BenchmarkWorkerSetup builds one runtime and installs the host's globals,
// as newWorker does before it evaluates a module.
func BenchmarkWorkerSetup(b *testing.B) {
	h := newHost(withDefaults(Options{Root: b.TempDir(), Logger: slog.New(slog.DiscardHandler), Bundler: bundle.New(nil)}))
	for b.Loop() {
		vm := goja.New()
		vm.SetMaxCallStackSize(maxCallDepth)
		w := &worker{h: h, tool: "t", vm: vm}
		if err := w.setup(); err != nil {
			b.Fatal(err)
		}
		w.discard()
	}
}
