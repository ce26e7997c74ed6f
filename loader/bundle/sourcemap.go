package bundle

import (
	"encoding/json"

	"github.com/go-sourcemap/sourcemap"
)

// Pos is a place in a file the user wrote: its path from the project
// root and a 1-based line and column, as editors count.
type Pos struct {
	File         string
	Line, Column int
}

// prefixesField is the field the bundler adds to esbuild's source map: where
// it put the import.meta prefix in each file (meta.go), so positions after
// it on its line are given as the file has them.
const prefixesField = "x_beeuni_prefixes"

type prefixJSON struct {
	Line int `json:"line"` // 1-based
	Col  int `json:"col"`  // 0-based, in bytes
	N    int `json:"n"`
}

// withPrefixes adds the prefixes of a build to its source map.
func withPrefixes(smap []byte, metas map[string]metaInserted) []byte {
	if len(metas) == 0 || smap == nil {
		return smap
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(smap, &m) != nil {
		return smap
	}
	ps := make(map[string]prefixJSON, len(metas))
	for file, ins := range metas {
		ps[file] = prefixJSON{Line: ins.at.line, Col: ins.at.col, N: ins.n}
	}
	m[prefixesField], _ = json.Marshal(ps)
	out, err := json.Marshal(m)
	if err != nil {
		return smap
	}
	return out
}

// Original maps a place in the code of the bundle with key (1-based line
// and column of Result.Code) to the file the user wrote, through the
// bundle's source map. ok is false for code no file wrote (the import.meta
// helper, in-memory sources) or a map no longer kept.
func (b *Bundler) Original(key string, line, col int) (Pos, bool) {
	raw, _ := b.get(b.maps, key, "s:"+key)
	if raw == nil || line < 1 || col < 1 {
		return Pos{}, false
	}
	sm, err := sourcemap.Parse("", raw)
	if err != nil {
		return Pos{}, false
	}
	file, _, l, c, ok := sm.Source(line, col-1)
	if !ok || file == "" {
		return Pos{}, false
	}
	var ext struct {
		Prefixes map[string]prefixJSON `json:"x_beeuni_prefixes"`
	}
	_ = json.Unmarshal(raw, &ext)
	if p, ok := ext.Prefixes[file]; ok && l == p.Line && c >= p.Col+p.N {
		c -= p.N
	}
	return Pos{File: file, Line: l, Column: c + 1}, true
}
