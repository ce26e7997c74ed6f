package node

import (
	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// eventsModule is node:events (EventEmitter), written in js/node.js.
func eventsModule(r *rt.Runtime) goja.Value { return jsModule(r, "events") }
