package bench

import (
	"errors"
	"testing"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// TestBunBaselineAnswersLikeBeeuni is the Node.js check for the Bun
// baseline: Bun.serve running the TypeScript modules answers beeuni's bytes.
func TestBunBaselineAnswersLikeBeeuni(t *testing.T) {
	bun, why, err := installBun(t.Context(), t.TempDir())
	switch {
	case errors.Is(err, npmcache.ErrNoNPM) || (err == nil && bun == ""):
		t.Skipf("no Bun: %s; the Bun baseline is not checked", why)
	case err != nil:
		t.Fatal(err)
	}
	answersLikeBeeuni(t, "bun", func(dir string, mods map[string]string) (*jsServer, error) {
		return startBun(t.Context(), bun, dir, "bench-call", mods)
	})
}
