package loader

import (
	"os"
	"testing"
)

// BenchmarkReadDemo reads examples/demo (a root file, one import, agents)
// on the default runtime.
func BenchmarkReadDemo(b *testing.B) {
	fsys := os.DirFS("../examples/demo")
	for b.Loop() {
		if p := Read(fsys, HarnessDefault); p.HasErrors() {
			b.Fatal(p.Findings)
		}
	}
}

// BenchmarkVisible is the check the executor makes on every call.
func BenchmarkVisible(b *testing.B) {
	p := Read(os.DirFS("../examples/demo"), HarnessDefault)
	for b.Loop() {
		p.Visible("greeter", "pty_spawn")
	}
}
