package rt

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// toy is a platform with two modules, one requiring the other, and a
// counter of how often each factory ran.
func toy(made map[string]int) Platform {
	return Platform{
		Install: func(r *Runtime) error {
			r.LazyGlobal("toy", true, func() goja.Value { return r.VM.ToValue("global") })
			return nil
		},
		Modules: Modules{
			"a": func(r *Runtime) goja.Value { made["a"]++; return r.VM.NewObject() },
			"a/b": func(r *Runtime) goja.Value {
				made["a/b"]++
				o := r.VM.NewObject()
				_ = o.Set("a", r.Require("a"))
				return o
			},
		},
	}
}

func newRuntime(t *testing.T, made map[string]int) *Runtime {
	t.Helper()
	h := NewHost(Host{}, []Platform{toy(made)}, func(name string) string { return "no module " + name })
	r, err := h.NewRuntime(goja.New(), "t")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRequire(t *testing.T) {
	made := map[string]int{}
	r := newRuntime(t, made)
	v, err := r.VM.RunString(`[require('a') === require('node:a'), require('a/b').a === require('a'), toy].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "true,true,global" {
		t.Fatalf("got %q", got)
	}
	if made["a"] != 1 || made["a/b"] != 1 {
		t.Fatalf("factories ran %v times, want once each", made)
	}
	// An unknown name throws Node's error: an Error with code
	// MODULE_NOT_FOUND and the host's message for the name as passed.
	for _, name := range []string{"node:nope", "nope", "a/c"} {
		v, err = r.VM.RunString(`try { require('` + name + `'); 'no throw' } catch (e) { [e instanceof Error, e.code, e.message].join() }`)
		if err != nil || v.String() != "true,MODULE_NOT_FOUND,no module "+name {
			t.Fatalf("require(%q): %v %v", name, v, err)
		}
	}
	if got := strings.Join(r.Host.ModuleNames(), ","); got != "a,a/b" {
		t.Fatalf("ModuleNames = %q", got)
	}
}

func TestNewHostRejectsTwoPlatformsForOneName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("NewHost accepted two platforms answering require('a')")
		}
	}()
	NewHost(Host{}, []Platform{toy(map[string]int{}), toy(map[string]int{})}, nil)
}

func TestLocal(t *testing.T) {
	type key struct{}
	type other struct{}
	r := newRuntime(t, map[string]int{})
	calls := 0
	mk := func() *int { calls++; n := calls; return &n }
	a, b := Local(r, key{}, mk), Local(r, key{}, mk)
	c := Local(r, other{}, mk)
	if a != b || a == c || calls != 2 {
		t.Fatalf("Local: same key gave %p and %p, other key %p, made %d times", a, b, c, calls)
	}
	if r2 := newRuntime(t, map[string]int{}); Local(r2, key{}, mk) == a {
		t.Fatal("Local shared a value between runtimes")
	}
}

// TestClose: the OnClose functions run once, the last registered first.
func TestClose(t *testing.T) {
	r := newRuntime(t, map[string]int{})
	var order []string
	r.OnClose(func() { order = append(order, "first") })
	r.OnClose(func() { order = append(order, "second") })
	r.Close()
	r.Close()
	if got := strings.Join(order, ","); got != "second,first" {
		t.Errorf("closed %q, want second,first", got)
	}
}
