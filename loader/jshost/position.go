package jshost

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// thrownAt is where in the files the user wrote err was thrown:
// "tools/x.ts:3:7", from the innermost frame in the module's bundle,
// mapped through the bundle's source map; "" when it cannot say.
func (w *worker) thrownAt(err error) string {
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		return ""
	}
	for _, f := range ex.Stack() {
		if f.SrcName() != w.mod.file {
			continue // a native function (JSON.parse) or the host's own JS
		}
		pos := f.Position()
		return w.h.where(w.mod, pos.Line, pos.Column)
	}
	return ""
}

// where maps a 1-based line and column of the module's program (the
// bundle under moduleHeader) to the original file: "tools/x.ts:3:7"; ""
// for code no file wrote (the wrapper, the host's helpers, in-memory
// modules).
func (h *host) where(mod *module, line, col int) string {
	p, ok := h.bundler.Original(mod.key, line-strings.Count(moduleHeader, "\n"), col)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}
