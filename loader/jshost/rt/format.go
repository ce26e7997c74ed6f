package rt

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// Format is util.format: %s %d %i %f %j %o %O %% in a leading string, the
// other arguments inspected and joined by spaces (console, util, process).
func (r *Runtime) Format(args []goja.Value) string {
	var b bytes.Buffer
	rest := args
	if len(args) > 0 {
		if s, ok := args[0].Export().(string); ok {
			rest = args[1:]
			for i := 0; i < len(s); i++ {
				if s[i] != '%' || i+1 == len(s) {
					b.WriteByte(s[i])
					continue
				}
				verb := s[i+1]
				if verb == '%' {
					b.WriteByte('%')
					i++
					continue
				}
				if !strings.ContainsRune("sdifjoOc", rune(verb)) || len(rest) == 0 {
					b.WriteByte(s[i])
					continue
				}
				v := rest[0]
				rest = rest[1:]
				i++
				switch verb {
				case 's':
					if _, isObj := v.(*goja.Object); isObj {
						b.WriteString(r.Inspect(v))
					} else {
						b.WriteString(v.String())
					}
				case 'd', 'i':
					f := v.ToFloat()
					if verb == 'i' {
						f = float64(int64(f))
					}
					b.WriteString(r.VM.ToValue(f).String())
				case 'f':
					b.WriteString(r.VM.ToValue(v.ToFloat()).String())
				case 'j', 'o', 'O':
					b.WriteString(r.Inspect(v))
				}
			}
		}
	}
	for i, v := range rest {
		if i > 0 || b.Len() > 0 {
			b.WriteByte(' ')
		}
		if s, ok := v.Export().(string); ok {
			b.WriteString(s)
		} else {
			b.WriteString(r.Inspect(v))
		}
	}
	return b.String()
}

// Inspect shows a value the way a log reader wants it: JSON for data,
// "Name: message" for errors, [Function: f] for functions.
func (r *Runtime) Inspect(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		if s, isStr := v.Export().(string); isStr {
			return fmt.Sprintf("%q", s)
		}
		return v.String()
	}
	if _, isFn := goja.AssertFunction(o); isFn {
		return fmt.Sprintf("[Function: %s]", o.Get("name").String())
	}
	if IsError(r.VM, o) {
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			return st.String()
		}
		return o.String()
	}
	if b, err := o.MarshalJSON(); err == nil {
		return string(b)
	}
	return o.String()
}
