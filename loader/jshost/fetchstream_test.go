package jshost

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFetchBodyStreams reads fetched bodies as streams on loopback: a
// chunk arrives before the server has sent the rest, the body's limit
// holds for a streamed body as for text(), an abort after the response's
// head ends the body's reading, and a FormData body goes out as
// multipart/form-data with its boundary.
func TestFetchBodyStreams(t *testing.T) {
	gate := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fl := w.(http.Flusher)
		switch r.URL.Path {
		case "/chunks":
			// The rest waits for /next, which the tool asks for only after
			// it has read the first chunk: the body cannot have been read whole.
			w.Write([]byte("one"))
			fl.Flush()
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
			w.Write([]byte("two"))
		case "/next":
			close(gate)
		case "/big":
			chunk := []byte(strings.Repeat("x", 1<<20))
			for range 12 { // 12 MiB, no Content-Length: over the 8 MiB call limit
				if _, err := w.Write(chunk); err != nil {
					return
				}
				fl.Flush()
			}
		case "/hang":
			w.Write([]byte("head"))
			fl.Flush()
			<-r.Context().Done()
		case "/echo":
			r.ParseMultipartForm(1 << 20)
			f, fh, err := r.FormFile("file")
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			defer f.Close()
			json.NewEncoder(w).Encode(map[string]any{"ct": strings.SplitN(r.Header.Get("Content-Type"), "=", 2)[0], "name": r.FormValue("name"), "file": fh.Filename, "type": fh.Header.Get("Content-Type"), "size": fh.Size})
		}
	}))
	t.Cleanup(srv.Close)
	root := project(t, map[string]string{"tools/s.ts": `
export default {
  description: 'streams', parameters: { type: 'object' },
  async execute(args: any) {
    const base = args.base
    const dec = (v: Uint8Array) => new TextDecoder().decode(v)
    switch (args.mode) {
      case 'chunks': {
        const rd = (await fetch(base + '/chunks')).body!.getReader()
        const first = await rd.read()
        await fetch(base + '/next')
        let rest = ''
        for (;;) { const { done, value } = await rd.read(); if (done) break; rest += dec(value) }
        return [dec(first.value!), rest]
      }
      case 'big-text':
        return (await fetch(base + '/big')).text().then(() => 'read', (e: any) => e.name + ': ' + e.message)
      case 'big-stream': {
        const rd = (await fetch(base + '/big')).body!.getReader()
        try { for (;;) { const { done } = await rd.read(); if (done) return 'read' } } catch (e: any) { return e.name + ': ' + e.message }
      }
      case 'abort': {
        const ac = new AbortController()
        const res = await fetch(base + '/hang', { signal: ac.signal })
        const rd = res.body!.getReader()
        const head = dec((await rd.read()).value!)
        const pending = rd.read()
        ac.abort()
        return pending.then(() => 'read', (e: any) => head + ' ' + e.name)
      }
      case 'form': {
        const fd = new FormData()
        fd.append('name', 'Ada')
        fd.append('file', new File(['{"a":1}'], 'a.json', { type: 'application/json' }))
        return (await fetch(base + '/echo', { method: 'POST', body: fd })).json()
      }
    }
  },
}`})
	s, _ := loadTools(t, root, Options{CallMemory: 8 << 20}, "tools/s.ts")
	mustLoad(t, s)
	// Over the limit, either guard may be first: the body's own count
	// (a TypeError the tool catches) or, when the collector lags behind
	// the chunks already dropped (a loaded machine), the call-memory
	// watchdog (the call fails). Both hold the call to its 8 MiB.
	const overBody = `TypeError: the response body is over the tool's memory limit of 8 MiB`
	const stopped = `the tool was stopped: it used more than its memory limit of 8 MiB`
	for _, c := range []struct {
		mode, want string
		orStopped  bool
	}{
		{"chunks", `["one","two"]`, false},
		{"big-text", overBody, true},
		{"big-stream", overBody, true},
		{"abort", `head AbortError`, false},
		{"form", `{"ct":"multipart/form-data; boundary","file":"a.json","name":"Ada","size":7,"type":"application/json;charset=utf-8"}`, false},
	} {
		r := call(t, s, "s", `{"base":"`+srv.URL+`","mode":"`+c.mode+`"}`)
		if c.orStopped && r.IsError && strings.Contains(r.Output, stopped) {
			continue
		}
		got := r.Output // a string as it is, JSON compacted
		var v any
		if json.Unmarshal([]byte(r.Output), &v) == nil {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if r.IsError || got != c.want {
			t.Errorf("%s = %+v, want %s", c.mode, r, c.want)
		}
	}
}
