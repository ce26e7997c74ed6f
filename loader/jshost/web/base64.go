package web

import (
	"encoding/base64"
	"strings"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installBase64 installs atob and btoa.
func installBase64(r *rt.Runtime) {
	vm := r.VM
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(vm.Set("atob", func(s string) string {
		b, err := base64.StdEncoding.DecodeString(strings.Map(dropSpace, s))
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.Map(dropSpace, s), "=")); err != nil {
				panic(r.DOMError("The string to be decoded is not correctly encoded.", "InvalidCharacterError"))
			}
		}
		out := make([]rune, len(b)) // atob answers a "binary string": one char per byte
		for i, c := range b {
			out[i] = rune(c)
		}
		return string(out)
	}))
	must(vm.Set("btoa", func(s string) string {
		b := make([]byte, 0, len(s))
		for _, c := range s {
			if c > 0xff {
				panic(r.DOMError("Invalid character", "InvalidCharacterError"))
			}
			b = append(b, byte(c))
		}
		return base64.StdEncoding.EncodeToString(b)
	}))
}

func dropSpace(r rune) rune {
	if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
		return -1
	}
	return r
}
