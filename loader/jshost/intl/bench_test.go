package intl

import (
	"testing"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// BenchmarkInstall is what the platform adds to every runtime's set-up
// (Intl itself is made on first read).
func BenchmarkInstall(b *testing.B) {
	h := rt.NewHost(rt.Host{}, nil, func(name string) string { return "no module " + name })
	for b.Loop() {
		b.StopTimer()
		r, err := h.NewRuntime(goja.New(), "t")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := install(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstUse is a runtime's first Intl call: js/intl.js run and a
// formatter made (the locale data is decoded once per process).
func BenchmarkFirstUse(b *testing.B) {
	data()
	for b.Loop() {
		vm := newVM(b)
		if _, err := vm.RunString(`new Intl.NumberFormat('de').format(1234.5)`); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDataLoad is the once-per-process decoding of the locale data
// and of one locale.
func BenchmarkDataLoad(b *testing.B) {
	for b.Loop() {
		b2 := loadData()
		b2.locale("de")
	}
}
