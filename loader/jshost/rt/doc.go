// Package rt is what a platform binding sees of one goja runtime of the
// tool host: the VM, its event loop, the host's settings (Host), the
// module registry and the helpers every platform uses. The core
// (loader/jshost) makes runtimes, evaluates modules and runs calls; each
// platform (loader/jshost/node, loader/jshost/web, ...) is a package that
// exports one rt.Platform, listed once in the core's platforms().
//
// # Adding a global
//
// In the platform's Install, which runs for every runtime (every module
// load and every pool growth), so keep it cheap:
//
//	r.LazyGlobal("Thing", true, func() goja.Value { return makeThing(r) })
//
// LazyGlobal makes the value on first read; the property then is the data
// property it would have been. Install eagerly (r.VM.Set, or
// DefineDataProperty) only what libraries read through its property
// descriptor (core-js reads fetch, Request, Headers, queueMicrotask).
// Platforms install in the core's order, each in its own: that is the
// order of the global object's keys.
//
// # Adding a module
//
// Add the name and its factory to the platform's Modules: one Go file per
// module, func(r *rt.Runtime) goja.Value. require strips "node:", then
// calls the factory once per runtime, on first use, and answers the same
// value after (so "fs" and "node:fs" are one module; "bun:sqlite" keeps
// its prefix). A module that needs another calls r.Require(name). Per
// runtime state a platform needs beyond one module lives in rt.Local under
// a key of the platform's own type. Two platforms may not answer one name
// (NewHost panics).
//
// # Go work and the event loop
//
// JS runs only on the goroutine that holds the runtime; a binding's Go
// function runs there too. Work that waits (network, processes, files
// that may block) runs on a goroutine of its own, started like this:
//
//	l := r.Loop
//	ctx, cancel := context.WithCancel(l.Context()) // ends with the call
//	gen := l.Generation()
//	go func() {
//		defer cancel()
//		res, err := work(ctx)
//		l.Post(gen, func() error { // back on the loop, unless the call ended
//			_, jerr := callback(goja.Undefined(), ...)
//			return rt.Uncatchable(jerr)
//		})
//	}()
//
// The goroutine must end when ctx does: the core cancels it when the call
// ends (returned, timed out, interrupted), and Post then drops the job.
// Touch the VM only inside a posted job, never from the goroutine. Timers
// are l.SetTimer and l.ClearTimer.
//
// Throw what Node or the browser throws (r.VM.NewTypeError, r.DOMError),
// with a message that says what to change.
//
// # What a binding must not do
//
//   - Block the loop: no network, sleeping or waiting in a binding's Go
//     function; start Go work as above and answer a promise or callback.
//   - Keep goroutines past the call: everything started ends with
//     l.Context().
//   - Hold a runtime (r, r.VM, goja values) anywhere that outlives it: a
//     timed-out or interrupted runtime is thrown away, and state in
//     package variables would leak between runtimes and tools. Immutable
//     data (a compiled *goja.Program in a sync.OnceValue) is fine.
//
// # Asking the policy
//
// Every binding that touches the outside asks r.Host.Policy (package
// policy; docs/security-jshost.md) before it acts, and then uses only
// what it answers:
//
//	p := r.Path(path, policy.Read, "open")                 // throws Node's EACCES; p is the resolved path
//	p := r.Path(path, policy.Write|policy.NoFollow, "unlink")
//	d := r.Host.Policy.Dialer(&net.Dialer{})                // sockets: decides on the resolved address
//	r.Host.HTTPClient                                       // already dials through the policy
//	r.Host.Env                                              // process.env, already filtered
//	r.Alloc(n)                                              // a size a tool chose: RangeError over the call's limit
//
// Never a check of its own: the rules live in one place. A child process
// is confined by Landlock from r.Host.Policy.Roots() and gets r.Host.Env.
package rt
