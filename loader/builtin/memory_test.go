package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The memory commands in the order a model would use them, each checked
// against the files it leaves on disk.
func TestMemoryCommands(t *testing.T) {
	root := t.TempDir()
	set := loadTool(t, "memory", root)
	mem := func(args map[string]any) string {
		t.Helper()
		return wantOK(t, call(t, set, "memory", args, nil))
	}

	const empty = `memory/ has no files yet: create one with {"command": "create", "path": "memory/notes.md", "file_text": "..."}.`
	if got := mem(map[string]any{"command": "view", "path": "memory"}); got != empty {
		t.Errorf("view with no memory/ folder = %q, want %q", got, empty)
	}

	steps := []struct {
		args      map[string]any
		want      string
		file      string // a file to check afterwards ("" for none)
		fileWants string
	}{
		{map[string]any{"command": "create", "path": "memory/notes/a.md", "file_text": "one\ntwo\n"}, "Created memory/notes/a.md.", "memory/notes/a.md", "one\ntwo\n"},
		{map[string]any{"command": "create", "path": "memory/notes/a.md", "file_text": "alpha\nbeta\n"}, "Created memory/notes/a.md.", "memory/notes/a.md", "alpha\nbeta\n"},
		{map[string]any{"command": "create", "path": "memory/top.md", "file_text": ""}, "Created memory/top.md.", "memory/top.md", ""},
		{map[string]any{"command": "view", "path": "memory/notes/a.md"}, "alpha\nbeta\n", "", ""},
		{map[string]any{"command": "view", "path": "memory"}, "memory/notes/\nmemory/notes/a.md\nmemory/top.md", "", ""},
		{map[string]any{"command": "view", "path": "memory/notes/"}, "memory/notes/a.md", "", ""},
		// $& and $1 are not replacement patterns here: the text goes in as it is.
		{map[string]any{"command": "str_replace", "path": "memory/notes/a.md", "old_str": "beta", "new_str": "BETA $& $1"}, "Replaced the text in memory/notes/a.md.", "memory/notes/a.md", "alpha\nBETA $& $1\n"},
		{map[string]any{"command": "str_replace", "path": "memory/notes/a.md", "old_str": "alpha\n", "new_str": ""}, "Replaced the text in memory/notes/a.md.", "memory/notes/a.md", "BETA $& $1\n"},
		{map[string]any{"command": "insert", "path": "memory/notes/a.md", "insert_line": 0, "insert_text": "top"}, "Inserted 1 line after line 0 of memory/notes/a.md.", "memory/notes/a.md", "top\nBETA $& $1\n"},
		{map[string]any{"command": "insert", "path": "memory/notes/a.md", "insert_line": 2, "insert_text": "end 1\nend 2\n"}, "Inserted 2 lines after line 2 of memory/notes/a.md.", "memory/notes/a.md", "top\nBETA $& $1\nend 1\nend 2\n"},
		{map[string]any{"command": "insert", "path": "memory/notes/a.md", "insert_line": "1", "insert_text": "second"}, "Inserted 1 line after line 1 of memory/notes/a.md.", "memory/notes/a.md", "top\nsecond\nBETA $& $1\nend 1\nend 2\n"},
		{map[string]any{"command": "insert", "path": "memory/top.md", "insert_line": 0, "insert_text": "first"}, "Inserted 1 line after line 0 of memory/top.md.", "memory/top.md", "first\n"},
		{map[string]any{"command": "rename", "old_path": "memory/notes", "new_path": "memory/archive/2024/notes"}, "Renamed memory/notes to memory/archive/2024/notes.", "memory/archive/2024/notes/a.md", "top\nsecond\nBETA $& $1\nend 1\nend 2\n"},
		{map[string]any{"command": "rename", "old_path": "memory/top.md", "new_path": "memory/first.md"}, "Renamed memory/top.md to memory/first.md.", "memory/first.md", "first\n"},
		{map[string]any{"command": "view", "path": "memory"}, "memory/archive/\nmemory/archive/2024/\nmemory/archive/2024/notes/\nmemory/archive/2024/notes/a.md\nmemory/first.md", "", ""},
		{map[string]any{"command": "delete", "path": "memory/archive/2024/notes/a.md"}, "Deleted memory/archive/2024/notes/a.md.", "", ""},
		{map[string]any{"command": "view", "path": "memory/archive/2024/notes"}, "memory/archive/2024/notes/ is empty.", "", ""},
		{map[string]any{"command": "delete", "path": "memory/archive"}, "Deleted memory/archive.", "", ""},
		{map[string]any{"command": "view", "path": "./memory//"}, "memory/first.md", "", ""},
	}
	for _, s := range steps {
		if got := mem(s.args); got != s.want {
			t.Fatalf("%v:\n got %q\nwant %q", s.args, got, s.want)
		}
		if s.file != "" {
			if got := readFile(t, root, s.file); got != s.fileWants {
				t.Fatalf("after %v, %s = %q, want %q", s.args, s.file, got, s.fileWants)
			}
		}
	}
	for _, gone := range []string{"memory/notes", "memory/top.md", "memory/archive"} {
		if _, err := os.Lstat(filepath.Join(root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still exists (%v)", gone, err)
		}
	}
	// Writes go through a temporary file and a rename: none is left behind.
	entries, _ := os.ReadDir(filepath.Join(root, "memory"))
	if len(entries) != 1 || entries[0].Name() != "first.md" {
		t.Errorf("memory/ holds %v, want first.md only", entries)
	}
}

func TestMemoryErrors(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "memory/a.md", "same\nsame\nonce\n")
	writeFile(t, root, "memory/b.md", "b\n")
	writeFile(t, root, "memory/dir/c.md", "c\n")
	set := loadTool(t, "memory", root)

	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"unknown command", map[string]any{"command": "append", "path": "memory/a.md"}, "unknown command \"append\": pass `command`, one of view, create, str_replace, insert, delete, rename."},
		{"no command", map[string]any{"path": "memory/a.md"}, "command is missing: pass `command`, one of view, create, str_replace, insert, delete, rename."},
		{"no path", map[string]any{"command": "view"}, "path is missing: pass `path`, a path under memory/, e.g. \"memory/notes.md\"."},
		{"view missing", map[string]any{"command": "view", "path": "memory/nope.md"}, "memory/nope.md does not exist: view \"memory\" to list what there is."},
		{"create no text", map[string]any{"command": "create", "path": "memory/x.md"}, "file_text is missing: pass `file_text`, the whole text of the file."},
		{"create over folder", map[string]any{"command": "create", "path": "memory/dir", "file_text": "x"}, "memory/dir is a folder: pass a file path, e.g. \"memory/dir/notes.md\"."},
		{"create memory itself", map[string]any{"command": "create", "path": "memory", "file_text": "x"}, "path is memory/ itself: pass a path inside it, e.g. \"memory/notes.md\"."},
		{"replace twice", map[string]any{"command": "str_replace", "path": "memory/a.md", "old_str": "same", "new_str": "x"}, "old_str occurs 2 times in memory/a.md: include more of the text around it so it occurs exactly once."},
		{"replace absent", map[string]any{"command": "str_replace", "path": "memory/a.md", "old_str": "never", "new_str": "x"}, "old_str does not occur in memory/a.md: view the file and copy the exact text, whitespace included."},
		{"replace empty", map[string]any{"command": "str_replace", "path": "memory/a.md", "old_str": "", "new_str": "x"}, "old_str is missing: pass `old_str`, the exact text to replace."},
		{"replace no new", map[string]any{"command": "str_replace", "path": "memory/a.md", "old_str": "once"}, "new_str is missing: pass `new_str`, the text that replaces old_str (\"\" to delete it)."},
		{"replace missing file", map[string]any{"command": "str_replace", "path": "memory/nope.md", "old_str": "a", "new_str": "b"}, "memory/nope.md does not exist: create it with the create command."},
		{"replace folder", map[string]any{"command": "str_replace", "path": "memory/dir", "old_str": "a", "new_str": "b"}, "memory/dir is a folder: pass a file path."},
		{"insert past end", map[string]any{"command": "insert", "path": "memory/a.md", "insert_line": 4, "insert_text": "x"}, "insert_line 4 is not a line of memory/a.md: pass a number from 0 (the top) to 3 (after the last line)."},
		{"insert negative", map[string]any{"command": "insert", "path": "memory/a.md", "insert_line": -1, "insert_text": "x"}, "insert_line -1 is not a line of memory/a.md: pass a number from 0 (the top) to 3 (after the last line)."},
		{"insert fraction", map[string]any{"command": "insert", "path": "memory/a.md", "insert_line": 1.5, "insert_text": "x"}, "insert_line 1.5 is not a line of memory/a.md: pass a number from 0 (the top) to 3 (after the last line)."},
		{"insert no line", map[string]any{"command": "insert", "path": "memory/a.md", "insert_text": "x"}, "insert_line null is not a line of memory/a.md: pass a number from 0 (the top) to 3 (after the last line)."},
		{"insert no text", map[string]any{"command": "insert", "path": "memory/a.md", "insert_line": 0}, "insert_text is missing: pass `insert_text`, the lines to insert."},
		{"delete missing", map[string]any{"command": "delete", "path": "memory/nope"}, "memory/nope does not exist: view \"memory\" to list what there is."},
		{"delete memory itself", map[string]any{"command": "delete", "path": "memory/"}, "path is memory/ itself: pass a path inside it, e.g. \"memory/notes.md\"."},
		{"rename onto existing", map[string]any{"command": "rename", "old_path": "memory/a.md", "new_path": "memory/b.md"}, "memory/b.md exists: delete it first, or pass another new_path."},
		{"rename missing", map[string]any{"command": "rename", "old_path": "memory/nope", "new_path": "memory/x"}, "memory/nope does not exist: view \"memory\" to list what there is."},
		{"rename into itself", map[string]any{"command": "rename", "old_path": "memory/dir", "new_path": "memory/dir/sub"}, "memory/dir/sub is inside memory/dir: pass a new_path outside the folder you move."},
		{"rename no new path", map[string]any{"command": "rename", "old_path": "memory/a.md"}, "new_path is missing: pass `new_path`, a path under memory/, e.g. \"memory/notes.md\"."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, call(t, set, "memory", c.args, nil), c.want)
		})
	}
	// No failed command changed anything.
	for rel, want := range map[string]string{"memory/a.md": "same\nsame\nonce\n", "memory/b.md": "b\n", "memory/dir/c.md": "c\n"} {
		if got := readFile(t, root, rel); got != want {
			t.Errorf("%s = %q after the failed commands, want %q", rel, got, want)
		}
	}
}

// Every way out of memory/ is refused with the same message, and nothing is
// written, read or deleted outside it.
func TestMemoryEscapes(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "checkout")
	outside := filepath.Join(base, "outside")
	writeFile(t, outside, "secret.txt", "secret\n")
	writeFile(t, root, "README.md", "readme\n")
	writeFile(t, root, "memory/ok.md", "ok\n")
	writeFile(t, root, "memory/real/inner.md", "inner\n")
	for link, target := range map[string]string{
		"memory/out":      outside,                                    // a folder outside
		"memory/out.txt":  filepath.Join(outside, "secret.txt"),       // a file outside
		"memory/up":       "../..",                                    // a relative link up
		"memory/readme":   filepath.Join(root, "README.md"),           // the checkout, outside memory/
		"memory/dangling": filepath.Join(outside, "not-yet", "x.txt"), // would create a file outside
		"memory/inside":   "real",                                     // stays inside: allowed
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skipf("symlinks not available: %v", err)
		}
	}
	set := loadTool(t, "memory", root)

	refused := func(arg, p string) string {
		// The message quotes the path as JSON does: a NUL shows as \u0000.
		p = strings.ReplaceAll(p, "\x00", `\u0000`)
		return arg + ` "` + p + "\" is outside memory/: paths must start with `memory/` (e.g. \"memory/notes.md\") and stay inside it."
	}
	paths := []string{
		"../outside/secret.txt", "/etc/passwd", root + "/memory/ok.md", "memory/../README.md", "memory/../../outside/secret.txt",
		"memory/real/../../README.md", "README.md", "memoryx/a.md", "memory.md", "./../memory/ok.md", "~/memory/a.md",
		"memory/out/secret.txt", "memory/out", "memory/out.txt", "memory/up/outside/secret.txt", "memory/readme",
		"memory/dangling", "memory/out/new/file.md", "memory/ok.md\x00.txt",
	}
	for _, p := range paths {
		for _, args := range []map[string]any{
			{"command": "view", "path": p},
			{"command": "create", "path": p, "file_text": "pwned\n"},
			{"command": "str_replace", "path": p, "old_str": "secret", "new_str": "pwned"},
			{"command": "insert", "path": p, "insert_line": 0, "insert_text": "pwned"},
			{"command": "delete", "path": p},
		} {
			res := call(t, set, "memory", args, nil)
			if want := refused("path", p); !res.IsError || res.Output != want {
				t.Errorf("%v:\n got %+v\nwant error %q", args, res, want)
			}
		}
		res := call(t, set, "memory", map[string]any{"command": "rename", "old_path": p, "new_path": "memory/moved.md"}, nil)
		if want := refused("old_path", p); !res.IsError || res.Output != want {
			t.Errorf("rename from %q: got %+v, want error %q", p, res, want)
		}
		res = call(t, set, "memory", map[string]any{"command": "rename", "old_path": "memory/ok.md", "new_path": p}, nil)
		if want := refused("new_path", p); !res.IsError || res.Output != want {
			t.Errorf("rename to %q: got %+v, want error %q", p, res, want)
		}
	}

	if got := readFile(t, outside, "secret.txt"); got != "secret\n" {
		t.Errorf("outside/secret.txt = %q", got)
	}
	if got := readFile(t, root, "README.md"); got != "readme\n" {
		t.Errorf("README.md = %q", got)
	}
	if got := readFile(t, root, "memory/ok.md"); got != "ok\n" {
		t.Errorf("memory/ok.md = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(outside, "not-yet")); !os.IsNotExist(err) {
		t.Errorf("a file was created through the dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "memory", "out", "new")); !os.IsNotExist(err) {
		t.Errorf("a folder was created through the link: %v", err)
	}

	// A link that stays inside memory/ is followed.
	if got := wantOK(t, call(t, set, "memory", map[string]any{"command": "view", "path": "memory/inside/inner.md"}, nil)); got != "inner\n" {
		t.Errorf("view through an inside link = %q", got)
	}
}

// A memory/ folder that is itself a link out of the checkout is refused too.
func TestMemoryFolderIsLinkOut(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "checkout")
	writeFile(t, base, "elsewhere/a.md", "a\n")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(root, "memory")); err != nil {
		t.Skipf("symlinks not available: %v", err)
	}
	set := loadTool(t, "memory", root)
	for _, p := range []string{"memory", "memory/a.md"} {
		wantError(t, call(t, set, "memory", map[string]any{"command": "view", "path": p}, nil),
			`path "`+p+"\" is outside memory/: paths must start with `memory/` (e.g. \"memory/notes.md\") and stay inside it.")
	}
}
