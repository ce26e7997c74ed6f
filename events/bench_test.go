package events_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/beeuni/beeuni/events/natstest"
)

// BenchmarkDesiredPropagation: PutDesired until a watcher has it.
func BenchmarkDesiredPropagation(b *testing.B) {
	bus := connect(b, natstest.RunServer(b).ClientURL(), 1)
	ctx := context.Background()
	ch := watchDesired(b, bus, "demo")
	for i := 0; b.Loop(); i++ {
		rev, err := bus.PutDesired(ctx, "demo", fmt.Appendf(nil, "r%d", i))
		if err != nil {
			b.Fatal(err)
		}
		for d := next(b, ch); d.rev != rev; d = next(b, ch) {
		}
	}
}

func BenchmarkPublishEvent(b *testing.B) {
	bus := connect(b, natstest.RunServer(b).ClientURL(), 1)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if err := bus.Publish(ctx, "demo", "release.built", []byte("{}"), fmt.Sprint(i)); err != nil {
			b.Fatal(err)
		}
	}
}
