// Package natstest starts real in-process NATS servers with JetStream for
// tests of the packages built on events.
package natstest

import (
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
)

// Timeout bounds how long a helper waits for a server or a cluster.
const Timeout = 20 * time.Second

// RunServer starts a single server on a free port with JetStream storage in
// tb.TempDir(); it shuts down at the end of the test.
func RunServer(tb testing.TB) *events.Embedded {
	tb.Helper()
	e, err := events.StartEmbedded(events.EmbeddedOptions{Port: -1, StoreDir: tb.TempDir(), ServerName: "test"})
	if err != nil {
		tb.Fatalf("start NATS: %v", err)
	}
	tb.Cleanup(e.Shutdown)
	return e
}

// Restart shuts e down and starts it again on the same port with the same
// store folder, as a NATS restart in production would; clients reconnect.
func Restart(tb testing.TB, e *events.Embedded) *events.Embedded {
	tb.Helper()
	o := e.Options()
	o.Port = e.Port()
	e.Shutdown()
	var (
		ne  *events.Embedded
		err error
	)
	// The old listener's port can take a moment to be free again.
	deadline := time.Now().Add(Timeout)
	for {
		if ne, err = events.StartEmbedded(o); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		tb.Fatalf("restart NATS on port %d: %v", o.Port, err)
	}
	tb.Cleanup(ne.Shutdown)
	return ne
}

// Cluster is n in-process servers routed to each other.
type Cluster struct {
	Nodes []*events.Embedded
}

// URLs is the comma-separated client URL list of the running nodes.
func (c *Cluster) URLs() string {
	var s string
	for _, n := range c.Nodes {
		if n == nil {
			continue
		}
		if s != "" {
			s += ","
		}
		s += n.ClientURL()
	}
	return s
}

// RunCluster starts an n-node JetStream cluster and waits until it has a
// meta leader that sees every node; it shuts down at the end of the test.
func RunCluster(tb testing.TB, n int) *Cluster {
	tb.Helper()
	ports := freePorts(tb, n)
	var routes []string
	for _, p := range ports {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	c := &Cluster{}
	for i := range n {
		e, err := events.StartEmbedded(events.EmbeddedOptions{
			Port:       -1,
			StoreDir:   tb.TempDir(),
			ServerName: fmt.Sprintf("n%d", i+1),
			Cluster:    &events.ClusterOptions{Name: "beeuni-test", Port: ports[i], Routes: routes},
		})
		if err != nil {
			tb.Fatalf("start cluster node %d: %v", i+1, err)
		}
		tb.Cleanup(e.Shutdown)
		c.Nodes = append(c.Nodes, e)
	}
	WaitFor(tb, Timeout, func() error {
		for _, e := range c.Nodes {
			s := e.Server()
			if s.JetStreamIsLeader() {
				if peers := s.JetStreamClusterPeers(); len(peers) != n {
					return fmt.Errorf("meta leader %s sees %d of %d peers", s.Name(), len(peers), n)
				}
				return nil
			}
		}
		return fmt.Errorf("no JetStream meta leader yet")
	})
	return c
}

// Stop shuts node i down (and keeps it down).
func (c *Cluster) Stop(i int) {
	c.Nodes[i].Shutdown()
	c.Nodes[i] = nil
}

// Leader returns the index of the current meta leader, or -1.
func (c *Cluster) Leader() int {
	return slices.IndexFunc(c.Nodes, func(e *events.Embedded) bool {
		return e != nil && e.Server().JetStreamIsLeader()
	})
}

// WaitFor polls check until it returns nil or timeout passes.
func WaitFor(tb testing.TB, timeout time.Duration, check func() error) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("after %s: %v", timeout, err)
		}
		time.Sleep(wait)
		wait = min(wait*2, 100*time.Millisecond)
	}
}

// freePorts reserves n free loopback ports; the route mesh needs them known
// before any node starts.
func freePorts(tb testing.TB, n int) []int {
	tb.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatalf("reserve a port: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}
