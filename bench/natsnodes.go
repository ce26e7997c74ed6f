package bench

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/beeuni/beeuni/events"
)

// maxConsumers lifts the server's default of 1,000 consumers per stream:
// the fleet scenario puts two watches per subscriber on the desired
// bucket's stream (its own and the baseline's), up to 2,000.
const maxConsumers = -1

// startNATS starts one embedded NATS server, or with nodes > 1 an
// in-process cluster of that many, and waits until the cluster has a
// JetStream meta leader that sees every node.
func startNATS(ctx context.Context, dir string, nodes int) ([]*events.Embedded, error) {
	if nodes <= 1 {
		e, err := events.StartEmbedded(events.EmbeddedOptions{Port: -1, StoreDir: dir, ServerName: "bench", MaxConsumersPerStream: maxConsumers})
		if err != nil {
			return nil, err
		}
		return []*events.Embedded{e}, nil
	}
	ports, err := freePorts(nodes)
	if err != nil {
		return nil, err
	}
	var routes []string
	for _, p := range ports {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	var started []*events.Embedded
	stop := func() {
		for _, e := range started {
			e.Shutdown()
		}
	}
	for i := range nodes {
		e, err := events.StartEmbedded(events.EmbeddedOptions{Port: -1, StoreDir: filepath.Join(dir, fmt.Sprintf("n%d", i+1)),
			ServerName: fmt.Sprintf("bench-n%d", i+1), MaxConsumersPerStream: maxConsumers,
			Cluster: &events.ClusterOptions{Name: "beeuni-bench", Port: ports[i], Routes: routes}})
		if err != nil {
			stop()
			return nil, fmt.Errorf("start cluster node %d: %w", i+1, err)
		}
		started = append(started, e)
	}
	ready := waitUntil(ctx, time.Minute, 10*time.Millisecond, func() bool {
		for _, e := range started {
			if s := e.Server(); s.JetStreamIsLeader() {
				return len(s.JetStreamClusterPeers()) == nodes
			}
		}
		return false
	})
	if !ready {
		stop()
		return nil, fmt.Errorf("the %d-node NATS cluster has no JetStream leader seeing every node after a minute", nodes)
	}
	return started, nil
}

// freePorts finds n free loopback ports for the route mesh, which must be
// known before any node starts.
func freePorts(n int) ([]int, error) {
	var ports []int
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port for a NATS route: %w", err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
