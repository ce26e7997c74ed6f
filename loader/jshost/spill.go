package jshost

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Spilled outputs live in one folder under the temp folder, shared by the
// executors of a machine. The model is given a file's path and may read it
// later in its turn, or in a later turn: a file is kept SpillKeep, and the
// folder is held under SpillMaxBytes (past it, the oldest go first). Every
// spill, every Load (an executor's start, a release switch) and every
// Close sweeps the folder.
const (
	SpillKeep     = 24 * time.Hour
	SpillMaxBytes = 256 << 20
	spillDir      = "beeuni-output"
	// tempKeep is how long a half-written file may stay: a write that
	// crashed leaves one; a write in progress is younger.
	tempKeep = time.Hour
)

// spillFolder is where spilled outputs of a host with temp folder tmp go.
func spillFolder(tmp string) string { return filepath.Join(tmp, spillDir) }

// sweepSpills removes from dir the outputs older than maxAge, the
// half-written files older than tempKeep, then the oldest outputs until
// the rest fit in maxBytes; keep (a file just written) always stays.
// Errors are ignored: another executor may sweep the same folder.
func sweepSpills(dir, keep string, now time.Time, maxAge time.Duration, maxBytes int64) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path  string
		size  int64
		mtime time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p, age := filepath.Join(dir, e.Name()), now.Sub(info.ModTime())
		switch {
		case strings.HasSuffix(e.Name(), ".tmp"):
			if age > tempKeep {
				_ = os.Remove(p)
			}
		case age > maxAge && p != keep:
			_ = os.Remove(p)
		default:
			files = append(files, file{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	slices.SortFunc(files, func(a, b file) int { return a.mtime.Compare(b.mtime) })
	for _, f := range files {
		if total <= maxBytes {
			return
		}
		if f.path != keep && os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
