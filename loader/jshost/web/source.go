package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// sourceChunk is how much one read of a byte source asks of its reader: a
// stream's chunks are at most this long.
const sourceChunk = 64 << 10

// byteSource is a Go reader as js/web.js sees it (the source of a
// ReadableStream of bytes, and of a fetched body read whole): its JS side
// is read(all, cb) and cancel(). read asks for the next chunk, or with all
// for everything left, and cb(err, ArrayBuffer|null) answers on the loop,
// null at the end. One read is pending at a time. The reader is read by
// serve, on a goroutine that ends with the call.
type byteSource struct {
	r     *rt.Runtime // only its loop is touched off the loop's goroutine
	gen   uint64
	ctx   context.Context // the call's: serve ends with it
	limit int64           // bytes it may deliver in all; 0: no limit
	what  string          // "the response body": what errors name
	want  chan sourceRead
	done  chan struct{} // closed when serve has ended; err then says why
	err   error         // nil at the end of the reader
}

type sourceRead struct {
	all bool
	cb  goja.Callable
}

// newByteSource is made on the loop's goroutine, with the context serve
// is to end with (the call's, or one derived from it).
func newByteSource(r *rt.Runtime, ctx context.Context, limit int64, what string) *byteSource {
	return &byteSource{r: r, gen: r.Loop.Generation(), ctx: ctx, limit: limit, what: what,
		want: make(chan sourceRead, 1), done: make(chan struct{})}
}

// errLimit is the error of a source that delivered more than its limit.
func (s *byteSource) errLimit() error {
	return fmt.Errorf("%s is over the tool's memory limit of %s", s.what, rt.Bytes(uint64(s.limit)))
}

// errEnded is the error of a read after the source's context ended.
func (s *byteSource) errEnded() error {
	if c := context.Cause(s.ctx); !errors.Is(c, context.Canceled) {
		return fmt.Errorf("reading %s: %w", s.what, c)
	}
	return fmt.Errorf("%s can no longer be read: it was canceled, or the call that opened it has ended", s.what)
}

// serve reads src as the JS side asks, until its end, an error or the end
// of ctx (the call's, or cancel()); it closes src. Run it on a goroutine
// of its own: a Read that blocks is ended by closing src when ctx ends.
func (s *byteSource) serve(src io.ReadCloser) {
	var once sync.Once
	closeSrc := func() { once.Do(func() { _ = src.Close() }) }
	stop := context.AfterFunc(s.ctx, closeSrc)
	defer stop()
	defer closeSrc()
	buf := make([]byte, sourceChunk)
	var total int64
	for {
		var req sourceRead
		select {
		case <-s.ctx.Done():
			s.err = s.errEnded()
			close(s.done)
			return
		case req = <-s.want:
		}
		var data []byte
		var err error
		if req.all {
			left := int64(1<<62) - total
			if s.limit > 0 {
				left = s.limit - total
			}
			data, err = io.ReadAll(io.LimitReader(src, left+1))
			if err == nil {
				err = io.EOF
			}
		} else {
			var n int
			n, err = src.Read(buf)
			data = append([]byte(nil), buf[:n]...)
			if n > 0 && errors.Is(err, io.EOF) {
				err = nil // the end is answered by the next read
			}
		}
		total += int64(len(data))
		if s.limit > 0 && total > s.limit {
			data, err = nil, s.errLimit()
		}
		if s.ctx.Err() != nil && err != nil && !errors.Is(err, io.EOF) {
			err = s.errEnded() // not "file already closed"
		}
		last := err != nil
		if last {
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			close(s.done) // before the answer: a read after it must not wait
		}
		s.r.Loop.Post(s.gen, func() error { return s.answer(req, data, err) })
		if last {
			return
		}
	}
}

// answer calls cb on the loop with what one read got: (null, bytes),
// (null, null) at the end of a chunked read, or (message).
func (s *byteSource) answer(req sourceRead, data []byte, err error) error {
	vm := s.r.VM
	var jerr error
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		_, jerr = req.cb(goja.Undefined(), vm.ToValue(err.Error()))
	case len(data) == 0 && !req.all:
		_, jerr = req.cb(goja.Undefined(), goja.Null(), goja.Null())
	default:
		_, jerr = req.cb(goja.Undefined(), goja.Null(), vm.ToValue(vm.NewArrayBuffer(data)))
	}
	return rt.Uncatchable(jerr)
}

// object is the JS side of s: read(all, cb) and cancel(), which ends the
// reading (cancel is the context's, or nil).
func (s *byteSource) object(cancel context.CancelFunc) *goja.Object {
	vm := s.r.VM
	o := vm.NewObject()
	_ = o.Set("read", func(all bool, cb goja.Callable) {
		// Ended (the reader's end, an error, or the call that made it is
		// over): answer now, as serve no longer reads want.
		if ended := isClosed(s.done); ended || s.ctx.Err() != nil {
			var err error
			if ended {
				err = s.err // written before done closed
			} else {
				err = s.errEnded()
			}
			if err := s.answer(sourceRead{all: all, cb: cb}, nil, err); err != nil {
				panic(err)
			}
			return
		}
		select {
		case s.want <- sourceRead{all: all, cb: cb}:
		default:
			panic(vm.NewTypeError("reading " + s.what + ": a read is already pending"))
		}
	})
	_ = o.Set("cancel", func() {
		if cancel != nil {
			cancel()
		}
	})
	return o
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
