package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lazyProject copies testdata/lazy (vendored packages that require lazily
// or optionally, as papaparse and linkedom do) into a temp folder.
func lazyProject(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "lazy"))); err != nil {
		tb.Fatal(err)
	}
	return root
}

func TestLazyRequiresLoad(t *testing.T) {
	root := lazyProject(t)
	r, err := newBundler(nil).Bundle(root, "tools/lazy.ts")
	if err != nil {
		t.Fatalf("a module whose requires never run fails to bundle: %v", err)
	}
	ran, err := runBundle(t, r.Code, filepath.Join(root, "tools/lazy.ts"))
	if err != nil {
		t.Fatalf("the bundle throws at load: %v", err)
	}
	// Loading ran the optional require in try/catch, and nothing else.
	if strings.Join(ran.required, ",") != "canvas" {
		t.Fatalf("required at load: %q, want only the optional canvas", ran.required)
	}
	v, err := ran.eval(t, `JSON.stringify(m.default.execute({}))`)
	if err != nil || v.String() != `{"canvas":false,"parsed":["a","b"],"ok":1}` {
		t.Fatalf("execute = %v, %v", v, err)
	}
	// Each lazy require throws `Cannot find module '<name>'` when it runs.
	for run, name := range map[string]string{
		"stream": "node:stream", "pkg": "not-installed", "file": "./not-here", "local": "./nothing-here",
	} {
		_, err := ran.eval(t, `m.default.execute({ run: '`+run+`' })`)
		if err == nil || !strings.Contains(err.Error(), "Cannot find module '"+name+"'") {
			t.Errorf("run %s: %v, want Cannot find module '%s'", run, err, name)
		}
	}
	// import() of a missing package rejects when it runs; its name carries
	// DynamicImportPrefix, for the host to answer as import() does.
	if _, err := ran.eval(t, `var rejected = ''; m.default.execute({ run: 'dyn' }).catch((e) => { rejected = e.message })`); err != nil {
		t.Fatal(err)
	}
	if v, err := ran.eval(t, `rejected`); err != nil || v.String() != "Cannot find module '"+DynamicImportPrefix+"also-missing'" {
		t.Fatalf("import() of a missing package: %v %v", v, err)
	}
}

func TestLazyRequiresStaticStillFail(t *testing.T) {
	root := lazyProject(t)
	b := newBundler(nil)
	// A static import of a missing package fails the load, even when the
	// same name is also required lazily in the file.
	if _, err := b.Bundle(root, "tools/static.ts"); err == nil || err.Error() != "Cannot find package 'gone'" {
		t.Fatalf("static import: %v", err)
	}
	// A top-level require bundles, and throws when the module loads.
	r, err := b.Bundle(root, "tools/toplevel.ts")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runBundle(t, r.Code, filepath.Join(root, "tools/toplevel.ts")); err == nil || !strings.Contains(err.Error(), "Cannot find module 'nope'") {
		t.Fatalf("top-level require at load: %v", err)
	}
}
