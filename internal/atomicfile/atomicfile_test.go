package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.js")
	for _, content := range []string{"one", "two, longer"} {
		if err := Write(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read back %q %v, want %q", got, err, content)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
			t.Fatalf("mode %v, want 0640", st.Mode().Perm())
		}
	}
	// A rename that fails (a folder is in the way) leaves the folder as it
	// was and no temp file.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(blocked, []byte("x"), 0o644); err == nil {
		t.Fatal("Write over a non-empty folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the folder holds %v, want f.js and blocked alone", names)
	}
}
