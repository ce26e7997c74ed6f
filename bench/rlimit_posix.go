//go:build linux || darwin

package bench

import (
	"fmt"
	"syscall"
)

// raiseFileLimit raises the soft limit of open files to the hard one when
// it is below need (Go does so at start too, but a parent may have
// lowered it), and says what to change when the hard limit is too low.
// It returns the soft limit in effect.
func raiseFileLimit(need uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read the open-file limit: %w", err)
	}
	if lim.Cur < need && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, fmt.Errorf("raise the open-file limit to %d: %w", lim.Max, err)
		}
	}
	if lim.Cur < need {
		return lim.Cur, fmt.Errorf("about %d open files are needed and the limit is %d: raise it (ulimit -n %d; the hard limit with ulimit -Hn as root) or run smaller sizes (--quick)",
			need, lim.Cur, need)
	}
	return lim.Cur, nil
}
