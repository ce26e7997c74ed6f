package release

import (
	"strings"
	"testing"
)

// compareDirs must order folders exactly as comparing path+"/" does: the
// order of Snapshot.Trees depends on it.
func FuzzCompareDirs(f *testing.F) {
	for _, s := range [][2]string{
		{"a", "a-b"}, {"a", "a.b"}, {"a", "a/b"}, {"a", "a0"}, {"a-b", "a/b"},
		{"", "a"}, {"a", "a"}, {"a/b", "a.b"}, {"ab", "a"}, {"a", "a\x00"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		want := strings.Compare(x+"/", y+"/")
		if got := compareDirs(x, y); got != want {
			t.Fatalf("compareDirs(%q, %q) = %d, want %d", x, y, got, want)
		}
	})
}
