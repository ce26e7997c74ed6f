package bench

import (
	"context"
	"os"
	"testing"
)

// Throwaway (H14): profile converge with 100 executors. Deleted after use.
func TestH14ConvergeProfile(t *testing.T) {
	if os.Getenv("H14_PROFILE") == "" {
		t.Skip("set H14_PROFILE=1")
	}
	s := DefaultSizes(false)
	s.Executors = []int{100}
	rep, err := Run(context.Background(), []string{"converge"}, Config{Rounds: 3, Sizes: s, NoNode: true})
	if err != nil {
		t.Fatal(err)
	}
	rep.WriteTable(os.Stdout)
}
