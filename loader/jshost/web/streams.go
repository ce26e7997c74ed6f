package web

import (
	"context"
	_ "embed"
	"io"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// js/streams.js is the WHATWG streams as the web-streams-polyfill package
// publishes them (a port of the spec's reference implementation),
// bundled by internal/genwebstreams (its header names the version and the
// license). js/web.js adds TextEncoderStream and TextDecoderStream over
// it, and the ReadableStream of a Go reader (ReadableStream below).
//
//go:embed js/streams.js
var streamsJS string

// streamsProgram is an expression whose value is the package's exports;
// compiled once per process, run once per runtime that uses a stream.
var streamsProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:streams.js", streamsJS, true) })

// run runs a program of this package in r and answers its value: a JS
// file made on first use (js/streams.js, js/blob.js).
func run(r *rt.Runtime, p *goja.Program) goja.Value {
	v, err := r.VM.RunProgram(p)
	if err != nil {
		panic(err)
	}
	return v
}

// ReadableStream answers a new ReadableStream of bytes (Uint8Array
// chunks, of at most 64 KiB) read from src as the stream is read: a
// read of the stream is a Read of src on a goroutine of the stream's own,
// so nothing is read ahead of what JS asks for. src is closed at its
// end, at an error, when the stream is canceled, and when the call ends
// (which also ends a Read that blocks: src's Close must do that, as an
// *os.File's or a pipe's does). limit bounds the bytes the stream
// delivers in all (0: none); past it the stream errors with a message
// naming what (as "the response body" or "the child's stdout"). Call it
// on the loop's goroutine, as any binding:
//
//	stdout, _ := cmd.StdoutPipe()
//	_ = proc.Set("stdout", web.ReadableStream(r, stdout, 0, "the child's stdout"))
func ReadableStream(r *rt.Runtime, src io.ReadCloser, limit int64, what string) goja.Value {
	ctx, cancel := context.WithCancel(r.Loop.Context())
	s := newByteSource(r, ctx, limit, what)
	go func() {
		defer cancel()
		s.serve(src)
	}()
	return stateOf(r).fromSource(r, s.object(cancel))
}

// fromSource is js/web.js's ReadableStream over a byte source's JS side.
func (st *state) fromSource(r *rt.Runtime, src *goja.Object) goja.Value {
	f, _ := goja.AssertFunction(st.web(r, "readableFromSource"))
	v, err := f(goja.Undefined(), src)
	if err != nil {
		panic(err)
	}
	return v
}
