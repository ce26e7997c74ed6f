package events

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Defaults of the embedded server: `beeuni up` listens where the networked
// commands look by default.
const (
	DefaultHost         = "127.0.0.1"
	DefaultPort         = 4222
	DefaultStartTimeout = 10 * time.Second
)

// EmbeddedOptions configure an in-process NATS server with JetStream.
type EmbeddedOptions struct {
	Host       string // default DefaultHost
	Port       int    // 0 means DefaultPort; -1 picks a free port
	StoreDir   string // JetStream storage; required
	ServerName string // required in a cluster, unique per node
	Cluster    *ClusterOptions
	// MaxConsumersPerStream is the server's default_max_consumers: 0 keeps
	// the server's default (1,000 per stream in nats-server 2.15), -1
	// lifts it. Every executor's watch of the desired key is one consumer
	// on the bucket's stream, so past 1,000 executors watches fail.
	MaxConsumersPerStream int
	// Logger receives the server's log lines; nil keeps it quiet.
	Logger       *slog.Logger
	StartTimeout time.Duration // default DefaultStartTimeout
}

// ClusterOptions make the embedded server one node of a JetStream cluster.
type ClusterOptions struct {
	Name   string   // the cluster name, the same on every node
	Host   string   // default: the client Host
	Port   int      // route listen port; -1 picks a free port
	Routes []string // nats-route://host:port of the nodes, itself included is fine
}

// Embedded is a running in-process NATS server.
type Embedded struct {
	srv  *server.Server
	opts EmbeddedOptions
	port int // bound client port, kept for after Shutdown
}

// StartEmbedded starts the server and waits until it accepts clients.
func StartEmbedded(o EmbeddedOptions) (*Embedded, error) {
	if o.StoreDir == "" {
		return nil, errors.New("start embedded NATS: no JetStream store folder (set the data folder, --data)")
	}
	if o.Host == "" {
		o.Host = DefaultHost
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	so := &server.Options{
		ServerName: o.ServerName,
		Host:       o.Host,
		Port:       o.Port,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		NoSigs:     true,
		NoLog:      o.Logger == nil,
	}
	so.JetStreamLimits.DefaultMaxConsumers = o.MaxConsumersPerStream
	if c := o.Cluster; c != nil {
		if c.Name == "" || o.ServerName == "" {
			return nil, errors.New("start embedded NATS: a cluster node needs a cluster name and a server name")
		}
		so.Cluster = server.ClusterOpts{Name: c.Name, Host: c.Host, Port: c.Port}
		if so.Cluster.Host == "" {
			so.Cluster.Host = o.Host
		}
		for _, r := range c.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, fmt.Errorf("start embedded NATS: route %q: %w (use nats-route://host:port)", r, err)
			}
			so.Routes = append(so.Routes, u)
		}
	}
	srv, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("start embedded NATS on %s:%d: %w", o.Host, o.Port, err)
	}
	if o.Logger != nil {
		srv.SetLoggerV2(slogAdapter{o.Logger.With("component", "nats-server")}, false, false, false)
	}
	go srv.Start() // Start returns once listeners run; the server owns its goroutines until Shutdown.
	if !srv.ReadyForConnections(o.StartTimeout) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("start embedded NATS on %s:%d: not ready after %s (is the port in use? pass another --nats-port)", o.Host, o.Port, o.StartTimeout)
	}
	e := &Embedded{srv: srv, opts: o, port: o.Port}
	if a, ok := srv.Addr().(*net.TCPAddr); ok {
		e.port = a.Port
	}
	return e, nil
}

// ClientURL is the nats:// URL clients connect to.
func (e *Embedded) ClientURL() string { return e.srv.ClientURL() }

// Port is the client port actually bound (useful after Port -1), also
// after Shutdown, so a restart can reuse it.
func (e *Embedded) Port() int { return e.port }

// Options returns the options it was started with.
func (e *Embedded) Options() EmbeddedOptions { return e.opts }

// Server exposes the server for tests that inspect cluster state.
func (e *Embedded) Server() *server.Server { return e.srv }

// Shutdown stops the server and waits until it has stopped.
func (e *Embedded) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// slogAdapter routes nats-server logs to slog.
type slogAdapter struct{ l *slog.Logger }

func (a slogAdapter) Noticef(format string, v ...any) { a.l.Info(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Warnf(format string, v ...any)   { a.l.Warn(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Fatalf(format string, v ...any)  { a.l.Error(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Errorf(format string, v ...any)  { a.l.Error(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Debugf(format string, v ...any)  { a.l.Debug(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Tracef(format string, v ...any)  { a.l.Debug(fmt.Sprintf(format, v...)) }
