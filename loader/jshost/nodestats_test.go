package jshost

import "testing"

// Stats and Dirents carry every type predicate Node's do (@nodelib/fs.stat,
// under fast-glob, binds them all), and mode carries the file's type.
func TestNodeStatsKinds(t *testing.T) {
	checkLikeNode(t, "import fs from 'node:fs'", []nodeCase{
		{`(() => { const k = ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice', 'isBlockDevice']; const n = fs.statSync('/dev/null'); const d = fs.statSync('/'); return [k.map((x) => n[x]()), n.mode.toString(8), k.map((x) => d[x]()), (d.mode & 0o170000).toString(8)] })()`, `[[false,false,false,false,false,true,false],"20666",[false,true,false,false,false,false,false],"40000"]`},
	})
}
