// Package cluster tests beeuni's distributed form: a controller and several
// executors across a 3-node NATS JetStream cluster (replicas 3), a node lost
// while they run, and the docker-compose.yml that deploys the same shape.
package cluster

import (
	"testing"
	"time"

	"github.com/beeuni/beeuni/events/natstest"
)

const (
	project   = "demo"
	replicas  = 3
	executors = 3
	// converge bounds each wait: a release reaching every executor, and
	// the fleet recovering from a lost node (stream leader elections, the
	// watch's resync every events.DefaultResyncInterval).
	converge = 30 * time.Second
)

// TestNodeLoss runs a controller and three executors on a 3-node cluster,
// stops one node and checks the fleet keeps serving and converges on a
// commit made after the loss.
func TestNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("3-node NATS cluster with a controller and three executors: skipped with -short")
	}
	for _, tc := range []struct {
		name string
		pick func(s *stack, t *testing.T, version, id string) int // the node to stop
	}{
		{"meta leader", func(s *stack, _ *testing.T, _, _ string) int { return s.cluster.Leader() }},
		{"non-leader with clients", (*stack).busiestFollower},
		// The controller was given node 0 only: it must fail over to the
		// nodes it learnt from the cluster.
		{"the controller's only seed", func(*stack, *testing.T, string, string) int { return 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t)
			first := s.repo.commit(t, "v1")
			s.hook(t)
			rel1 := s.waitBuilt(t, first)
			s.waitServing(t, "v1", rel1)
			checkReplicas(t, s.bus)

			stop := tc.pick(s, t, "v1", rel1)
			if stop < 0 {
				t.Fatal("no node to stop: the cluster has no meta leader")
			}
			t.Logf("stopping node n%d (meta leader: n%d, beeuni clients on it: %d)", stop+1, s.cluster.Leader()+1, beeuniClients(s.cluster.Nodes[stop].Server()))
			s.cluster.Stop(stop)

			// Executors keep serving their release while NATS fails over.
			s.checkServing(t, "v1", rel1)

			second := s.repo.commit(t, "v2")
			s.hook(t)
			rel2 := s.waitBuilt(t, second)
			if rel2 == rel1 {
				t.Fatalf("commit %s gave release %s again", second, rel2)
			}
			s.waitServing(t, "v2", rel2)
			// Every client is back on a running node.
			natstest.WaitFor(t, converge, func() error { return s.checkConnections() })
		})
	}
}
