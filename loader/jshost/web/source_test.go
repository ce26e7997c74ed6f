package web

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// newWebRuntime is a runtime with the web platform alone.
func newWebRuntime(t testing.TB) *rt.Runtime {
	t.Helper()
	h := rt.NewHost(rt.Host{}, []rt.Platform{Platform()}, func(name string) string { return "no module " + name })
	r, err := h.NewRuntime(goja.New(), "t")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// await runs the loop until the promise p settles (or a minute passes)
// and answers its value as a string, or "rejected: <message>".
func await(t testing.TB, r *rt.Runtime, p goja.Value) string {
	t.Helper()
	pr, ok := p.Export().(*goja.Promise)
	if !ok {
		t.Fatalf("%v is not a promise", p)
	}
	deadline := time.After(time.Minute)
	for pr.State() == goja.PromiseStatePending {
		select {
		case <-r.Loop.Wake():
			if err := r.Loop.Run(); err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatal("the promise did not settle in a minute")
		}
	}
	if pr.State() == goja.PromiseStateRejected {
		return "rejected: " + pr.Result().ToObject(r.VM).Get("message").String()
	}
	return pr.Result().String()
}

// readAll is a JS function that reads a stream to its end and answers
// its chunks' lengths and text.
const readAll = `(async (s) => {
	const rd = s.getReader(), lens = []; let text = ''
	for (;;) { const { done, value } = await rd.read(); if (done) break; lens.push(value.length); text += new TextDecoder().decode(value) }
	return lens.join('+') + ' ' + text })`

// TestReadableStreamOfAGoReader reads a Go reader through
// web.ReadableStream: what is read arrives as it is written (nothing is
// read ahead of the stream's reads), a limit errors the stream, and
// cancel and the end of the call close the reader.
func TestReadableStreamOfAGoReader(t *testing.T) {
	t.Run("chunks as written", func(t *testing.T) {
		r := newWebRuntime(t)
		pr, pw := io.Pipe()
		go func() {
			for _, w := range []string{"ab", "cde", strings.Repeat("x", sourceChunk+1)} {
				if _, err := pw.Write([]byte(w)); err != nil {
					return
				}
			}
			pw.Close()
		}()
		f, _ := goja.AssertFunction(must(r.VM.RunString(readAll)))
		p, err := f(goja.Undefined(), ReadableStream(r, pr, 0, "the pipe"))
		if err != nil {
			t.Fatal(err)
		}
		// A pipe's Read answers one Write at most: the chunks are the writes.
		if got, want := await(t, r, p), "2+3+65536+1 abcde"+strings.Repeat("x", sourceChunk+1); got != want {
			t.Fatalf("got %.40q, want %.40q", got, want)
		}
	})
	t.Run("over the limit", func(t *testing.T) {
		r := newWebRuntime(t)
		f, _ := goja.AssertFunction(must(r.VM.RunString(readAll)))
		p, _ := f(goja.Undefined(), ReadableStream(r, io.NopCloser(strings.NewReader("0123456789")), 4, "the pipe"))
		if got := await(t, r, p); got != "rejected: the pipe is over the tool's memory limit of 4 bytes" {
			t.Fatalf("got %q", got)
		}
	})
	for _, how := range []string{"cancel", "end of the call"} {
		t.Run(how, func(t *testing.T) {
			r := newWebRuntime(t)
			pr, pw := io.Pipe()
			wrote := make(chan error, 1)
			go func() {
				_, err := pw.Write([]byte("first"))
				if err == nil {
					_, err = pw.Write([]byte("never read"))
				}
				wrote <- err
			}()
			f, _ := goja.AssertFunction(must(r.VM.RunString(`(async (s) => { const rd = s.getReader(); const { value } = await rd.read(); globalThis.rd = rd; return value.length })`)))
			p, _ := f(goja.Undefined(), ReadableStream(r, pr, 0, "the pipe"))
			if got := await(t, r, p); got != "5" {
				t.Fatalf("first read = %q", got)
			}
			if how == "cancel" {
				must(r.VM.RunString(`rd.cancel()`))
			} else {
				r.Loop.Reset()
			}
			select {
			case err := <-wrote:
				if !errors.Is(err, io.ErrClosedPipe) {
					t.Fatalf("the writer got %v, want the closed pipe", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("the reader was not closed")
			}
			if how == "end of the call" {
				// A read in a later call answers at once.
				p = must(r.VM.RunString(`rd.read().then(() => 'read', (e) => e.message)`))
				if got := await(t, r, p); got != "the pipe can no longer be read: it was canceled, or the call that opened it has ended" {
					t.Fatalf("a read after the call = %q", got)
				}
			}
		})
	}
}

func must(v goja.Value, err error) goja.Value {
	if err != nil {
		panic(err)
	}
	return v
}
