package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni/internal/launch"
)

// goRunCommand is how to run beeuni from its module root with Go alone.
const goRunCommand = "go run ./cmd/beeuni"

// selfCommand is how the user runs this beeuni again, for the commands the
// program prints: after `go run ./cmd/beeuni up` there is no beeuni on the
// PATH, so printing `beeuni status` would not work as printed.
func (a *app) selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "beeuni"
	}
	cwd, _ := os.Getwd()
	return selfCommandFor(exe, cwd, a.getenv("GOCACHE"), exec.LookPath)
}

// selfCommandFor decides selfCommand from the running executable, the
// working folder and GOCACHE (lookPath is exec.LookPath):
//   - a test binary (`*.test`): `beeuni`, the name users know;
//   - a binary `go run` built (under a go-build temp folder or the build
//     cache): `go run ./cmd/beeuni`, from the module root when the working
//     folder is not it;
//   - a binary the PATH finds under its own name: that name;
//   - else its path, `./beeuni` when it is in the working folder.
func selfCommandFor(exe, cwd, gocache string, lookPath func(string) (string, error)) string {
	base := filepath.Base(exe)
	if strings.HasSuffix(base, ".test") {
		return "beeuni"
	}
	if builtByGoRun(exe, gocache) {
		root := moduleRoot(cwd)
		switch {
		case root == "":
			return "go run github.com/beeuni/beeuni/cmd/beeuni@latest"
		case root == cwd:
			return goRunCommand
		default:
			return "go run -C " + shellQuote(root) + " ./cmd/beeuni"
		}
	}
	if found, err := lookPath(base); err == nil && sameFile(found, exe) {
		return base
	}
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, exe); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return shellQuote("." + string(filepath.Separator) + rel)
		}
	}
	return shellQuote(exe)
}

// builtByGoRun: `go run` links into a go-build* temp folder, or (Go 1.24
// on) runs the executable it cached in the build cache.
func builtByGoRun(exe, gocache string) bool {
	if gocache != "" && strings.HasPrefix(exe, filepath.Clean(gocache)+string(filepath.Separator)) {
		return true
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(exe)), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}

// moduleRoot is the nearest folder from dir up that holds beeuni's main
// package, "" when there is none.
func moduleRoot(dir string) string {
	for d := dir; d != ""; d = filepath.Dir(d) {
		if exists(filepath.Join(d, "go.mod")) && exists(filepath.Join(d, "cmd", "beeuni", "main.go")) {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// selfLauncher is the launcher of the processes tools start: this binary
// run as `beeuni internal launch`; nil (tools start none) when the
// executable cannot be found.
func selfLauncher() *launch.Launcher {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return &launch.Launcher{Path: exe}
}
