package release

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestFS(t *testing.T) {
	r := newTestRepo(t)
	r.write("beeuni.yaml", "tools:\n  - tools/a.ts\n", 0o644)
	r.write("tools/a.ts", "export default {}\n", 0o644)
	r.write("tools/run.sh", "#!/bin/sh\n", 0o755)
	r.symlink("tools/alias.ts", "a.ts")
	r.symlink("lib", "tools")
	r.write(".gitignore", "ignored/\n", 0o644)
	r.write("ignored/x", "x", 0o644)
	s := r.build(r.commitAll("fs"), nil)
	fsys := r.open().FS(t.Context(), s.Entries)

	if err := fstest.TestFS(fsys, "beeuni.yaml", "tools/a.ts", "tools/run.sh", "tools/alias.ts", "lib"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"file", "beeuni.yaml", "tools:\n  - tools/a.ts\n"},
		{"through a file symlink", "tools/alias.ts", "export default {}\n"},
		{"through a folder symlink", "lib/a.ts", "export default {}\n"},
		{"through both", "lib/alias.ts", "export default {}\n"},
	}
	for _, tc := range tests {
		got, err := fs.ReadFile(fsys, tc.path)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: ReadFile(%s) = %q, %v; want %q", tc.name, tc.path, got, err, tc.want)
		}
	}
	if fi, err := fs.Stat(fsys, "tools/run.sh"); err != nil || fi.Mode() != 0o755 || fi.Size() != 10 {
		t.Errorf("Stat(run.sh) = %v, %v; want mode 0755 size 10", fi, err)
	}
	if fi, err := fs.Stat(fsys, "lib"); err != nil || !fi.IsDir() {
		t.Errorf("Stat(lib) = %v, %v; want the folder it points to", fi, err)
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name()+":"+e.Type().String())
	}
	if got, want := names, []string{".gitignore:----------", "beeuni.yaml:----------", "lib:L---------", "tools:d---------"}; !equalStrings(got, want) {
		t.Errorf("ReadDir(.) = %q, want %q", got, want)
	}
	for _, p := range []string{"ignored/x", "ignored", "missing", "beeuni.yaml/x"} {
		if _, err := fs.Stat(fsys, p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(%s) err = %v, want not exist", p, err)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
