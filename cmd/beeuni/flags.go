package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/beeuni/beeuni/internal/redact"
)

// newFlags returns a flag set that reports errors instead of exiting, so the
// command maps them to exit code 2.
func (a *app) newFlags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	fs.Usage = func() {
		fmt.Fprintf(a.stderr, "Usage: beeuni %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags wherever they stand among the positional arguments
// (`tools eject web_search --force` as well as `tools eject --force web_search`)
// and returns the positional ones. A nil error with help set means --help.
func parseArgs(fs *flag.FlagSet, args []string) (positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseOrUsage parses args and returns the exit code to use when parsing
// failed (0 for --help, 2 otherwise), with ok false.
func parseOrUsage(fs *flag.FlagSet, args []string) (positional []string, code int, ok bool) {
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, exitOK, false
	}
	if err != nil {
		return nil, exitUsage, false
	}
	return pos, exitOK, true
}

// projectDir resolves --dir (default: the current directory) to an absolute path.
func projectDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve --dir %q: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("open project folder: %w (pass --dir with the folder that holds beeuni.yaml)", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("open project folder: %s is not a folder (pass --dir with the folder that holds beeuni.yaml)", abs)
	}
	return abs, nil
}

// errorf prints a command's error the same way everywhere: without the
// credentials of a URL it quotes, and with control characters (from file
// names and commit subjects) escaped.
func (a *app) errorf(w io.Writer, format string, args ...any) {
	if w == nil {
		w = a.stderr
	}
	fmt.Fprintf(w, "beeuni: %s\n", redact.Line(fmt.Sprintf(format, args...)))
}
