package jshost

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// The limits past which an output is saved whole to a file.
const (
	MaxOutputBytes = 51200
	MaxOutputLines = 2000
)

// notice room: the head leaves space for the line that points to the file.
const noticeRoom = 512

// spill returns out as is when it fits; otherwise it saves out to a file
// in the spill folder under tmp (spill.go) and returns the head with a
// line giving the size and the path. maxChars, when > 0, is the module's
// maxResultChars: out fits only within that many characters (code points)
// too, and the head is cut to them.
func spill(tmp, tool, out string, maxChars int) Result {
	lines := countLines(out)
	cut := charsEnd(out, maxChars)
	if len(out) <= MaxOutputBytes && lines <= MaxOutputLines && cut == len(out) {
		return Result{Output: out}
	}
	head := headOf(out, min(MaxOutputBytes-noticeRoom, cut), MaxOutputLines-2)
	size := counted(len(out), "byte") + ", " + counted(lines, "line")
	dir := spillFolder(tmp)
	path, err := writeAtomic(dir, tool, out)
	if err != nil {
		return Result{Output: fmt.Sprintf("%s\n[output truncated: %s in all; saving the whole output failed: %v]", head, size, err)}
	}
	sweepSpills(dir, path, time.Now(), SpillKeep, SpillMaxBytes)
	msg := fmt.Sprintf("%s\n[output truncated: %s in all; the whole output is in %s]", head, size, path)
	return Result{Output: msg, Spilled: &Spill{Path: path, Bytes: int64(len(out)), Lines: lines}}
}

// counted is "1 line", "2 lines".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// charsEnd is the byte length of the first n characters of s (all of s
// when n <= 0 or s is shorter).
func charsEnd(s string, n int) int {
	if n <= 0 || len(s) <= n {
		return len(s)
	}
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// headOf cuts s at a line boundary within maxBytes and maxLines; a first
// line longer than maxBytes is cut at a character boundary instead.
func headOf(s string, maxBytes, maxLines int) string {
	end, lines := 0, 0
	for end < len(s) && lines < maxLines {
		i := strings.IndexByte(s[end:], '\n')
		next := len(s)
		if i >= 0 {
			next = end + i + 1
		}
		if next > maxBytes {
			break
		}
		end, lines = next, lines+1
	}
	if end == 0 {
		end = min(maxBytes, len(s))
		for end > 0 && !utf8.RuneStart(s[end]) && end < len(s) {
			end--
		}
	}
	return strings.TrimSuffix(s[:end], "\n")
}

// writeAtomic writes data to <tool>-<random>.txt in dir: temp file in the
// same folder, fsync, rename. The folder is the user's own: outputs may
// hold what a secret let a tool read.
func writeAtomic(dir, tool, data string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s.txt", safeName(tool), rand.Text()[:12]))
	f, err := os.CreateTemp(dir, ".output-*.tmp")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.WriteString(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", err
	}
	return name, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
