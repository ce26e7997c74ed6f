package builtin_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestShow(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "checkout")
	writeFile(t, root, "README.md", "# readme\n")
	writeFile(t, root, "docs/img/logo.png", "\x89PNG\r\n\x1a\n")
	writeFile(t, base, "secret.txt", "secret\n")
	if err := os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(root, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("README.md", filepath.Join(root, "readme-link.md")); err != nil {
		t.Fatal(err)
	}
	set := loadTool(t, "show", root)

	ok := []struct {
		name string
		args map[string]any
		want string // the output, as JSON
	}{
		{"file", map[string]any{"type": "file", "path": "README.md"}, `{"type":"file","path":"README.md"}`},
		{"file nested", map[string]any{"type": "file", "path": "./docs/img/../img/logo.png"}, `{"type":"file","path":"docs/img/logo.png"}`},
		{"file absolute inside", map[string]any{"type": "file", "path": filepath.Join(root, "README.md")}, `{"type":"file","path":"README.md"}`},
		{"file through inside link", map[string]any{"type": "file", "path": "readme-link.md"}, `{"type":"file","path":"README.md"}`},
		{"file with nulls", map[string]any{"type": "file", "path": "README.md", "url": nil, "content": "", "items": []any{}}, `{"type":"file","path":"README.md"}`},
		{"url", map[string]any{"type": "url", "url": "https://example.com/a?b=1#c"}, `{"type":"url","url":"https://example.com/a?b=1#c"}`},
		{"image path", map[string]any{"type": "image", "path": "docs/img/logo.png"}, `{"type":"image","path":"docs/img/logo.png"}`},
		{"image url", map[string]any{"type": "image", "url": "http://example.com/bee.jpg"}, `{"type":"image","url":"http://example.com/bee.jpg"}`},
		{"markdown", map[string]any{"type": "markdown", "content": "# Plan\n\n- one"}, `{"type":"markdown","content":"# Plan\n\n- one"}`},
		{"text", map[string]any{"type": "text", "content": "plain"}, `{"type":"text","content":"plain"}`},
		{"list", map[string]any{"type": "list", "items": []any{"a", map[string]any{"title": "b", "url": "https://b"}}}, `{"type":"list","items":["a",{"title":"b","url":"https://b"}]}`},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			var got, want any
			decode(t, wantOK(t, call(t, set, "show", c.args, nil)), &got)
			decode(t, c.want, &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}

	const (
		file  = "type file takes `path` of a file in the project, e.g. \"src/main.go\""
		url   = "type url takes `url`, an http(s) web page"
		image = "type image takes `path` of an image file in the project, or `url` of an http(s) image (one of them)"
		md    = "type markdown takes `content`, Markdown text"
		text  = "type text takes `content`, plain text"
		list  = "type list takes `items`, an array of strings or objects"
		types = "file, url, image, markdown, text, list"
	)
	bad := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no type", map[string]any{"path": "README.md"}, "type is missing: pass `type`, one of " + types + "."},
		{"unknown type", map[string]any{"type": "chart"}, `unknown type "chart": pass ` + "`type`" + ", one of " + types + "."},
		{"file no path", map[string]any{"type": "file"}, "`path` is missing: pass the path of a file in the project, e.g. \"src/main.go\"."},
		{"file with url", map[string]any{"type": "file", "path": "README.md", "url": "https://x"}, file + ": drop `url`."},
		{"file missing", map[string]any{"type": "file", "path": "nope.md"}, "nope.md does not exist in the project: pass the path of an existing file, relative to the project root."},
		{"file folder", map[string]any{"type": "file", "path": "docs"}, "docs is a folder: pass the path of a file inside it."},
		{"file outside", map[string]any{"type": "file", "path": "../secret.txt"}, "../secret.txt is outside the project: pass the path of a file inside it, relative to the project root."},
		{"file absolute outside", map[string]any{"type": "file", "path": "/etc/hostname"}, "/etc/hostname is outside the project: pass the path of a file inside it, relative to the project root."},
		{"file link outside", map[string]any{"type": "file", "path": "leak.txt"}, "leak.txt is outside the project: pass the path of a file inside it, relative to the project root."},
		{"file root", map[string]any{"type": "file", "path": "."}, ". is outside the project: pass the path of a file inside it, relative to the project root."},
		{"url no url", map[string]any{"type": "url"}, "`url` is missing: pass an absolute http(s) URL, e.g. \"https://example.com\"."},
		{"url not http", map[string]any{"type": "url", "url": "javascript:alert(1)"}, `url "javascript:alert(1)" is not http or https: pass an http(s) URL.`},
		{"url relative", map[string]any{"type": "url", "url": "/docs"}, `url "/docs" is not a URL: pass an absolute http(s) URL, e.g. "https://example.com".`},
		{"url with content", map[string]any{"type": "url", "url": "https://x", "content": "hi"}, url + ": drop `content`."},
		{"image both", map[string]any{"type": "image", "path": "docs/img/logo.png", "url": "https://x/a.png"}, image + ": pass exactly one."},
		{"image neither", map[string]any{"type": "image"}, image + ": pass exactly one."},
		{"image items", map[string]any{"type": "image", "url": "https://x/a.png", "items": []any{"a"}}, image + ": drop `items`."},
		{"image file url", map[string]any{"type": "image", "url": "file:///etc/passwd"}, `url "file:///etc/passwd" is not http or https: pass an http(s) URL.`},
		{"image missing file", map[string]any{"type": "image", "path": "docs/img/none.png"}, "docs/img/none.png does not exist in the project: pass the path of an existing file, relative to the project root."},
		{"markdown empty", map[string]any{"type": "markdown", "content": "  "}, md + ": pass `content`, the text to show."},
		{"markdown no content", map[string]any{"type": "markdown"}, md + ": pass `content`, the text to show."},
		{"markdown with path", map[string]any{"type": "markdown", "content": "x", "path": "README.md", "url": "https://x"}, md + ": drop `path` and `url`."},
		{"text number", map[string]any{"type": "text", "content": 42}, text + ": pass `content`, the text to show."},
		{"list none", map[string]any{"type": "list"}, list + ": pass at least one item."},
		{"list not array", map[string]any{"type": "list", "items": "a, b"}, list + ": pass at least one item."},
		{"list number item", map[string]any{"type": "list", "items": []any{"a", 2}}, "items[1] is a number: each item must be a string or an object."},
		{"list null item", map[string]any{"type": "list", "items": []any{nil}}, "items[0] is null: each item must be a string or an object."},
		{"list array item", map[string]any{"type": "list", "items": []any{[]any{"a"}}}, "items[0] is an array: each item must be a string or an object."},
		{"list with content", map[string]any{"type": "list", "items": []any{"a"}, "content": "x"}, list + ": drop `content`."},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, call(t, set, "show", c.args, nil), c.want)
		})
	}
}
