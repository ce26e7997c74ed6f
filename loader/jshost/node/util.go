package node

import (
	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// utilModule is node:util, written in js/node.js (format and inspect are
// rt's, as console's).
func utilModule(r *rt.Runtime) goja.Value { return jsModule(r, "util") }
