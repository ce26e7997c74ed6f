package web

import (
	"bytes"
	_ "embed"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// js/blob.js is Blob, File and FormData; js/web.js runs it on first use.
//
//go:embed js/blob.js
var blobJS string

var blobProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:blob.js", blobJS, true) })

// multipartParse is js/blob.js's n.multipart(bytes, contentType): the parts
// of a multipart/form-data body as [name, value, filename, type], value a
// string for a field and an ArrayBuffer for a file (filename then not
// null). A body that does not parse throws the TypeError Body.formData()
// rejects with.
func multipartParse(r *rt.Runtime) func(b goja.Value, contentType string) goja.Value {
	vm := r.VM
	fail := func(why string) {
		panic(vm.NewTypeError("Could not parse content as FormData: " + why))
	}
	return func(b goja.Value, contentType string) goja.Value {
		_, params, err := mime.ParseMediaType(contentType)
		if err != nil || params["boundary"] == "" {
			fail("the content type has no boundary")
		}
		body := buffer.DecodeBytes(vm, b, goja.Undefined())
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		var out []any
		for {
			p, err := mr.NextRawPart() // as sent: no Content-Transfer-Encoding undone
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				fail(err.Error())
			}
			data, err := io.ReadAll(p)
			if err != nil {
				fail(err.Error())
			}
			// The disposition's own filename: FileName would drop its folders.
			_, ps, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
			name := p.FormName()
			filename, isFile := ps["filename"]
			if !isFile {
				out = append(out, vm.NewArray(name, rt.DecodeUTF8(data), goja.Null(), ""))
				continue
			}
			out = append(out, vm.NewArray(name, vm.NewArrayBuffer(data), filename, p.Header.Get("Content-Type")))
		}
		return vm.NewArray(out...)
	}
}
