package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// bunPackage is the Bun release of the Bun baseline, pinned so figures
// compare across runs: the npm registry's platform package, which holds the
// binary itself (the `bun` package only downloads it in a postinstall).
const bunPackage = "@oven/bun-linux-x64@1.4.5"

// bunBinary is where the package keeps the binary.
const bunBinary = "node_modules/@oven/bun-linux-x64/bin/bun"

// findBun installs Bun once into the user's npm cache and returns its
// binary; when npm left it without the executable bit, a copy under
// tmp/bin (the cache is shared: never change it). It returns "" and why when
// there is none: the Bun baseline is then skipped, never failed (an npm that
// cannot reach its registry included).
func findBun(ctx context.Context, tmp string) (bin, why string) {
	bin, why, err := installBun(ctx, tmp)
	if err != nil {
		return "", err.Error() + ": the Bun baseline is skipped"
	}
	return bin, why
}

func installBun(ctx context.Context, tmp string) (bin, why string, err error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Sprintf("the Bun baseline is pinned for linux/amd64 (%s), not %s/%s", bunPackage, runtime.GOOS, runtime.GOARCH), nil
	}
	dir, err := npmcache.Install(ctx, bunPackage)
	if errors.Is(err, npmcache.ErrNoNPM) {
		return "", "npm not found on PATH: Bun (" + bunPackage + ") is not installed", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("install Bun: %w", err)
	}
	src := filepath.Join(dir, bunBinary)
	fi, err := os.Stat(src)
	if err != nil {
		return "", "", fmt.Errorf("install Bun: %w (remove %s to install again)", err, dir)
	}
	if fi.Mode()&0o111 == 0o111 {
		return src, "", nil
	}
	dst := filepath.Join(tmp, "bin", "bun")
	if err := copyExecutable(src, dst); err != nil {
		return "", "", fmt.Errorf("install Bun: %w", err)
	}
	return dst, "", nil
}

// copyExecutable copies src to dst with mode 0755.
func copyExecutable(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
