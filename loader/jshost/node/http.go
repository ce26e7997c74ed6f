package node

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"

	_ "embed"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// js/http.js is node:http and node:https as clients; node:http2, node:net
// and node:tls are there too, as far as packages touch them at import.
//
//go:embed js/http.js
var httpJS string

var httpProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:http.js", httpJS, true) })

type httpKey struct{}

// httpModules is js/http.js run once per runtime: {http, https, http2, net, tls}.
func httpModules(r *rt.Runtime) *goja.Object {
	return rt.Local(r, httpKey{}, func() *goja.Object {
		n := r.VM.NewObject()
		_ = n.Set("request", func(c goja.FunctionCall) goja.Value { return httpRequest(r, c) })
		_ = n.Set("stream", r.Require("stream"))
		_ = n.Set("events", r.Require("events"))
		_ = n.Set("Buffer", r.Require("buffer").ToObject(r.VM).Get("Buffer"))
		return runFactory(r, httpProgram(), n)
	})
}

// httpPart is one module of js/http.js.
func httpPart(name string) func(r *rt.Runtime) goja.Value {
	return func(r *rt.Runtime) goja.Value { return httpModules(r).Get(name) }
}

// httpRequest is n.request(method, url, [k, v, ...], body|null, host, cb):
// it sends the request on the host's node:http client in a goroutine that
// ends with the call (or with abort()), and calls cb(err) or cb(null,
// status, statusMessage, rawHeaders, httpVersion, body) on the loop, body
// being a ReadableStream of the response's bytes as the server sent them.
func httpRequest(r *rt.Runtime, c goja.FunctionCall) goja.Value {
	vm, l := r.VM, r.Loop
	method, target, pairs, body, cb := web.RequestArgs(r, c, "http.request")
	host := c.Argument(4).String()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	ctx, cancel := context.WithCancel(l.Context())
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		cancel()
		panic(vm.NewTypeError("http.request: " + err.Error()))
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		req.Header.Add(pairs[i], pairs[i+1])
	}
	if host != "" {
		req.Host = host
	}
	if _, ok := req.Header["User-Agent"]; !ok {
		req.Header.Set("User-Agent", "") // Node sends none; Go's default otherwise
	}
	gen := l.Generation()
	limit := web.BodyLimit(r)
	go func() {
		resp, err := r.Host.NodeHTTPClient.Do(req)
		posted := l.Post(gen, func() error {
			if err != nil {
				cancel()
				_, jerr := cb(goja.Undefined(), netError(r, err, req))
				return rt.Uncatchable(jerr)
			}
			raw := make([]string, 0, 2*len(resp.Header))
			for k, vs := range resp.Header {
				for _, v := range vs {
					raw = append(raw, k, v)
				}
			}
			if resp.ContentLength >= 0 {
				// Go keeps the length out of Header; Node shows it.
				raw = append(raw, "Content-Length", strconv.FormatInt(resp.ContentLength, 10))
			}
			msg := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
			version := strconv.Itoa(resp.ProtoMajor) + "." + strconv.Itoa(resp.ProtoMinor)
			bodyStream := web.ReadableStream(r, closeWith{resp.Body, cancel}, limit, "the response body")
			_, jerr := cb(goja.Undefined(), goja.Null(), vm.ToValue(resp.StatusCode), vm.ToValue(msg),
				vm.ToValue(raw), vm.ToValue(version), bodyStream)
			return rt.Uncatchable(jerr)
		})
		if !posted {
			cancel()
			if err == nil {
				_ = resp.Body.Close()
			}
		}
	}()
	h := vm.NewObject()
	_ = h.Set("abort", func() { cancel() })
	return h
}

// closeWith is a response body that ends its request's context when closed.
type closeWith struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c closeWith) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// netError is Node's error for a request that failed before its
// response: "connect ECONNREFUSED 127.0.0.1:1", "getaddrinfo ENOTFOUND
// host", with code, errno, syscall and the address.
func netError(r *rt.Runtime, err error, req *http.Request) *goja.Object {
	var dnsErr *net.DNSError
	var errno syscall.Errno
	var pe *policy.DialError
	switch {
	case errors.Is(err, context.Canceled):
		return r.NodeError("ECONNRESET", -int(syscall.ECONNRESET), "socket hang up", "", "")
	case errors.As(err, &pe):
		e := r.NodeError("EACCES", -int(syscall.EACCES), pe.Error(), "connect", "")
		_ = e.Set("address", pe.Addr)
		return e
	case errors.As(err, &dnsErr):
		e := r.NodeError("ENOTFOUND", -3008, "getaddrinfo ENOTFOUND "+dnsErr.Name, "getaddrinfo", "")
		_ = e.Set("hostname", dnsErr.Name)
		return e
	case errors.As(err, &errno):
		code := rt.ErrnoName(errno)
		var oe *net.OpError
		addr := req.URL.Host
		if errors.As(err, &oe) && oe.Addr != nil {
			addr = oe.Addr.String()
		}
		e := r.NodeError(code, -int(errno), "connect "+code+" "+addr, "connect", "")
		if h, p, err := net.SplitHostPort(addr); err == nil {
			_ = e.Set("address", h)
			if pn, err := strconv.Atoi(p); err == nil {
				_ = e.Set("port", pn)
			}
		}
		return e
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return r.NodeError("ETIMEDOUT", -int(syscall.ETIMEDOUT), "connect ETIMEDOUT "+req.URL.Host, "connect", "")
	}
	msg := err.Error()
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		msg = ue.Unwrap().Error() // without Go's `Get "url":` prefix
	}
	return r.NodeError("ECONNRESET", -int(syscall.ECONNRESET), msg, "", "")
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
