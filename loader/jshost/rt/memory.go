package rt

import (
	"fmt"

	"github.com/dop251/goja"
)

// Alloc throws a RangeError when one allocation of n bytes (what) is over
// the call's memory limit, before it is made: the watchdog cannot stop Go
// code that allocates in one step, and an allocation larger than the
// machine ends the whole process. Every binding that allocates a size a
// tool chooses (Buffer.alloc, a file read, a response body) calls it.
func (r *Runtime) Alloc(n int64) {
	if limit := r.Host.CallMemory; limit > 0 && (n < 0 || uint64(n) > limit) {
		panic(r.RangeError((&RangeError{Size: n, Limit: limit}).Error()))
	}
}

// RangeError makes a RangeError with msg (of the runtime's own
// constructor, whatever a module did to the global).
func (r *Runtime) RangeError(msg string) *goja.Object {
	o, err := r.VM.New(r.rangeError, r.VM.ToValue(msg))
	if err != nil {
		return r.VM.NewTypeError(msg)
	}
	return o
}

// RangeError is an allocation over the call's limit. The core throws it
// as a JS RangeError.
type RangeError struct {
	Size  int64
	Limit uint64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("this allocation (%s) is over the tool's memory limit of %s: process the data in parts", Bytes(uint64(max(e.Size, 0))), Bytes(e.Limit))
}

// Bytes prints a size as people write it: 256 MiB, 4 GiB, 1.5 GiB, 900 KiB.
func Bytes(n uint64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(n), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
