package web

import (
	"context"
	"log/slog"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// console writes into slog, one record per call, with the tool's name.
func console(r *rt.Runtime) *goja.Object {
	vm, logger := r.VM, r.Host.Logger
	o := vm.NewObject()
	level := func(l slog.Level) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			if logger.Enabled(context.Background(), l) {
				logger.Log(context.Background(), l, "tool console", slog.String("tool", r.Tool), slog.String("text", r.Format(c.Arguments)))
			}
			return goja.Undefined()
		}
	}
	for name, l := range map[string]slog.Level{
		"log": slog.LevelInfo, "info": slog.LevelInfo, "debug": slog.LevelDebug, "trace": slog.LevelDebug,
		"dir": slog.LevelInfo, "table": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
	} {
		_ = o.Set(name, level(l))
	}
	return o
}
