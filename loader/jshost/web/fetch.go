package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// maxResponseBytes bounds a fetched body held in memory (and the call's
// memory limit, when lower).
const maxResponseBytes = 256 << 20

// fetchNative is n.http(method, url, [k, v, ...], body|null, redirect, cb):
// it runs the request on Go's client in a goroutine that ends with the call
// (or with cancel()), and calls cb(err, status, statusText, headers, body,
// url, redirected) on the loop when the response's head is in; body is a
// byte source (source.go) the same goroutine then reads the response's
// body into, as JS asks for it, up to the limit.
func fetchNative(r *rt.Runtime, c goja.FunctionCall) goja.Value {
	vm, l := r.VM, r.Loop
	method, target, pairs, body, cb := RequestArgs(r, c, "fetch")
	redirect := c.Argument(4).String()
	ctx, cancel := context.WithCancel(l.Context())
	gen := l.Generation()
	client := r.Host.HTTPClient
	if redirect != "follow" {
		cl := *client
		cl.CheckRedirect = func(*http.Request, []*http.Request) error {
			if redirect == "error" {
				return errors.New("redirect mode is set to error")
			}
			return http.ErrUseLastResponse
		}
		client = &cl
	}
	limit := BodyLimit(r)
	src := newByteSource(r, ctx, limit, "the response body")
	go func() {
		defer cancel()
		resp, err := doFetch(ctx, client, method, target, pairs, body, limit)
		posted := l.Post(gen, func() error {
			if err != nil {
				_, jerr := cb(goja.Undefined(), vm.ToValue(err.Error()))
				return rt.Uncatchable(jerr)
			}
			var hs []string
			for k, vs := range resp.Header {
				for _, v := range vs {
					hs = append(hs, k, v)
				}
			}
			if resp.Uncompressed {
				// Go's transport asked for gzip itself, unpacked the body and
				// dropped the header; fetch in Bun and Node unpacks too but
				// shows the header as the server sent it.
				hs = append(hs, "Content-Encoding", "gzip")
			}
			text := http.StatusText(resp.StatusCode)
			final := resp.Request.URL.String()
			_, jerr := cb(goja.Undefined(), goja.Null(), vm.ToValue(resp.StatusCode), vm.ToValue(text),
				vm.ToValue(hs), src.object(cancel), vm.ToValue(final), vm.ToValue(final != target))
			return rt.Uncatchable(jerr)
		})
		if err == nil {
			if !posted {
				_ = resp.Body.Close()
				return
			}
			src.serve(resp.Body)
		}
	}()
	h := vm.NewObject()
	_ = h.Set("cancel", func() { cancel() })
	return h
}

// RequestArgs reads what fetch's and node:http's natives share: (method,
// url, [k, v, ...], body|null, <their own>, cb). The body is copied: JS
// may change its buffer while the request goes out.
func RequestArgs(r *rt.Runtime, c goja.FunctionCall, what string) (method, target string, pairs []string, body []byte, cb goja.Callable) {
	vm := r.VM
	method, target = c.Argument(0).String(), c.Argument(1).String()
	_ = vm.ExportTo(c.Argument(2), &pairs)
	if b := c.Argument(3); !goja.IsNull(b) && !goja.IsUndefined(b) {
		body = bytes.Clone(buffer.DecodeBytes(vm, b, goja.Undefined()))
	}
	cb, ok := goja.AssertFunction(c.Argument(5))
	if !ok {
		panic(vm.NewTypeError(what + ": no callback"))
	}
	return method, target, pairs, body, cb
}

// BodyLimit is how many bytes a response body read into the call may
// hold: maxResponseBytes, or the call's memory limit when lower. fetch
// and node:http(s) both read bodies under it.
func BodyLimit(r *rt.Runtime) int64 {
	limit := int64(maxResponseBytes)
	if m := r.Host.CallMemory; m > 0 && m < uint64(limit) {
		limit = int64(m)
	}
	return limit
}

// doFetch sends the request and answers the response with its body unread
// (the caller closes it), or an error.
func doFetch(ctx context.Context, client *http.Client, method, target string, pairs []string, body []byte, limit int64) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		req.Header.Add(pairs[i], pairs[i+1])
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "beeuni-tool")
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "*/*") // as fetch in Bun and Node sends it
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > limit {
		_ = resp.Body.Close()
		return nil, fmt.Errorf("the response body (%s) is over the tool's memory limit of %s", rt.Bytes(uint64(resp.ContentLength)), rt.Bytes(uint64(limit)))
	}
	return resp, nil
}
