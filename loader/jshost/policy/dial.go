package policy

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// dialRules are the addresses beeuni listens on. A listener on a local
// address (loopback, unspecified, an interface's) answers on every local
// address of its port in the cases that matter (0.0.0.0 and :: listen on
// all of them; 0.0.0.0 as a destination is this machine), so its port is
// refused on every local address; other listeners by their exact address.
type dialRules struct {
	localPorts map[uint16]string         // port -> the listener, for messages
	exact      map[netip.AddrPort]string // non-local listeners
}

func newDialRules(addrs []string) (dialRules, error) {
	d := dialRules{localPorts: map[uint16]string{}, exact: map[netip.AddrPort]string{}}
	for _, a := range addrs {
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return d, fmt.Errorf("deny dialing %q: %w", a, err)
		}
		pn, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return d, fmt.Errorf("deny dialing %q: bad port: %w", a, err)
		}
		if pn == 0 {
			continue // not listening yet: the caller passes the bound address
		}
		var ips []netip.Addr
		if host == "" {
			ips = []netip.Addr{netip.IPv4Unspecified()}
		} else if ip, err := netip.ParseAddr(host); err == nil {
			ips = []netip.Addr{ip}
		} else {
			// Resolved once, now: a name that does not resolve (a NATS
			// server not up yet) is skipped rather than failing the start.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			ips, _ = net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			cancel()
		}
		for _, ip := range ips {
			ip = ip.Unmap()
			if isLocal(ip) {
				d.localPorts[uint16(pn)] = a
			} else {
				d.exact[netip.AddrPortFrom(ip, uint16(pn))] = a
			}
		}
	}
	return d, nil
}

// isLocal reports whether ip is an address of this machine.
func isLocal(ip netip.Addr) bool {
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if x, ok := netip.AddrFromSlice(n.IP); ok && x.Unmap() == ip {
				return true
			}
		}
	}
	return false
}

// DialError is a refused connection.
type DialError struct {
	Addr     string // what was dialed (IP:port)
	Listener string // the beeuni address it reaches
}

func (e *DialError) Error() string {
	return fmt.Sprintf("connect EACCES %s: tools may not connect to beeuni's own address %s (the executor's API, the controller or NATS)", e.Addr, e.Listener)
}

func (e *DialError) Is(target error) bool { return target == ErrDenied }

// CheckDial decides a connection to addr (IP:port; a host name is
// resolved and every address it has is checked). network is "tcp",
// "tcp4", "udp", ...; every network is checked the same way.
func (p *Policy) CheckDial(network, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("dial %s %s: %w", network, addr, err)
	}
	pn, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return fmt.Errorf("dial %s %s: bad port", network, addr)
	}
	ips := []netip.Addr{}
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = append(ips, ip)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if ips, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
			return fmt.Errorf("dial %s %s: %w", network, addr, err)
		}
	}
	for _, ip := range ips {
		if err := p.checkAddr(netip.AddrPortFrom(ip.Unmap(), uint16(pn))); err != nil {
			return err
		}
	}
	return nil
}

func (p *Policy) checkAddr(ap netip.AddrPort) error {
	if l, ok := p.dial.exact[ap]; ok {
		return &DialError{Addr: ap.String(), Listener: l}
	}
	if l, ok := p.dial.localPorts[ap.Port()]; ok && isLocal(ap.Addr()) {
		return &DialError{Addr: ap.String(), Listener: l}
	}
	return nil
}

// Dialer is a net.Dialer that asks the policy for every address it
// connects to, after name resolution (so a name that resolves to a
// denied address is refused too), before the connection is made. An HTTP
// client for tools uses it as its transport's DialContext.
func (p *Policy) Dialer(d *net.Dialer) *net.Dialer {
	nd := *d
	prev := d.Control
	nd.Control = func(network, address string, c syscall.RawConn) error {
		if ap, err := netip.ParseAddrPort(address); err == nil {
			if err := p.checkAddr(netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())); err != nil {
				return err
			}
		} else if err := p.CheckDial(network, address); err != nil {
			return err
		}
		if prev != nil {
			return prev(network, address, c)
		}
		return nil
	}
	return &nd
}
