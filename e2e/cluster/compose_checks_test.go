package cluster

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/nats-io/nats-server/v2/server"
)

// deployment is a loaded compose project with the commands of its NATS and
// beeuni services parsed.
type deployment struct {
	p      *types.Project
	nats   map[string]*server.Options // service -> nats-server options
	beeuni map[string]beeuniCmd       // service -> beeuni command
	errs   []string
}

type beeuniCmd struct {
	name  string            // controller, executor
	flags map[string]string // flag name (no dashes) -> value
}

func newDeployment(p *types.Project) *deployment {
	return &deployment{p: p, nats: map[string]*server.Options{}, beeuni: map[string]beeuniCmd{}}
}

func (d *deployment) errorf(format string, args ...any) {
	d.errs = append(d.errs, fmt.Sprintf(format, args...))
}

// check runs every check and returns the findings, each naming its service.
func (d *deployment) check(bin string) []string {
	d.parseCommands(bin)
	d.checkHealth()
	d.checkBuild()
	d.checkVolumes()
	d.checkDependsOn()
	d.checkPorts()
	d.checkNATS()
	d.checkBeeuni()
	return d.errs
}

func (d *deployment) names() []string {
	names := make([]string, 0, len(d.p.Services))
	for n := range d.p.Services {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// parseCommands parses NATS commands with nats-server's own flag parser and
// beeuni commands with the real binary (`beeuni CMD ARGS... --help` exits 0
// only when every flag and value before --help parses).
func (d *deployment) parseCommands(bin string) {
	for _, name := range d.names() {
		s := d.p.Services[name]
		switch {
		case strings.HasPrefix(s.Image, "nats:"):
			fs := flag.NewFlagSet("nats-server", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			noop := func() {}
			o, err := server.ConfigureOptions(fs, s.Command, noop, noop, noop)
			if err != nil || o == nil {
				d.errorf("%s: nats-server %q: %v", name, s.Command, err)
				continue
			}
			d.nats[name] = o
		case s.Build != nil || strings.HasPrefix(s.Image, "beeuni"):
			if len(s.Command) == 0 {
				d.errorf("%s: no command: give a beeuni command such as executor", name)
				continue
			}
			cmd := exec.Command(bin, append(slices.Clone([]string(s.Command)), "--help")...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			if err != nil {
				msg, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
				d.errorf("%s: beeuni %s: %v: %s", name, strings.Join(s.Command, " "), err, msg)
				continue
			}
			flags, bad := parseFlags(s.Command[1:])
			for _, f := range bad {
				d.errorf("%s: beeuni %s: argument %q is not a --flag value pair", name, s.Command[0], f)
			}
			for f := range flags {
				if !strings.Contains(string(out), "  -"+f+" ") && !strings.Contains(string(out), "  -"+f+"\n") {
					d.errorf("%s: beeuni %s --help does not list -%s", name, s.Command[0], f)
				}
			}
			d.beeuni[name] = beeuniCmd{name: s.Command[0], flags: flags}
		default:
			d.errorf("%s: image %q is neither NATS nor beeuni", name, s.Image)
		}
	}
}

// parseFlags reads "--name value" and "--name=value" pairs; every beeuni
// flag the deployment uses takes a value.
func parseFlags(args []string) (flags map[string]string, bad []string) {
	flags = map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			bad = append(bad, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if n, v, ok := strings.Cut(name, "="); ok {
			flags[n] = v
			continue
		}
		if i+1 < len(args) {
			flags[name] = args[i+1]
			i++
		} else {
			bad = append(bad, a)
		}
	}
	return flags, bad
}

// listenPorts returns the container port a service serves its health check on
// and the ports it serves: beeuni --listen, or NATS client and monitoring ports.
func (d *deployment) listenPorts(name string) (health int, serves []int) {
	if o, ok := d.nats[name]; ok {
		client := o.Port
		if client == 0 {
			client = 4222
		}
		return o.HTTPPort, []int{client, o.HTTPPort}
	}
	if c, ok := d.beeuni[name]; ok {
		_, port, err := net.SplitHostPort(c.flags["listen"])
		if p, perr := strconv.Atoi(port); err == nil && perr == nil {
			return p, []int{p}
		}
	}
	return 0, nil
}

var probeURL = regexp.MustCompile(`https?://[^\s"']+`)

func (d *deployment) checkHealth() {
	for _, name := range d.names() {
		h := d.p.Services[name].HealthCheck
		if h == nil || h.Disable || len(h.Test) < 2 || (h.Test[0] != "CMD" && h.Test[0] != "CMD-SHELL") {
			d.errorf("%s: no health check: add healthcheck.test", name)
			continue
		}
		want, _ := d.listenPorts(name)
		u, err := url.Parse(probeURL.FindString(strings.Join(h.Test[1:], " ")))
		if err != nil || u.Host == "" {
			d.errorf("%s: health check %q probes no HTTP URL", name, h.Test)
			continue
		}
		if u.Port() != strconv.Itoa(want) {
			d.errorf("%s: health check probes port %s, the service serves HTTP on %d", name, u.Port(), want)
		}
		if u.Path != "/healthz" {
			d.errorf("%s: health check probes %s, want /healthz", name, u.Path)
		}
	}
}

func (d *deployment) checkBuild() {
	for _, name := range d.names() {
		b := d.p.Services[name].Build
		if b == nil {
			continue
		}
		dockerfile := b.Dockerfile
		if dockerfile == "" {
			dockerfile = "Dockerfile"
		}
		if !filepath.IsAbs(dockerfile) {
			dockerfile = filepath.Join(b.Context, dockerfile)
		}
		if st, err := os.Stat(b.Context); err != nil || !st.IsDir() {
			d.errorf("%s: build context %s is not a folder", name, b.Context)
			continue
		}
		body, err := os.ReadFile(dockerfile)
		if err != nil {
			d.errorf("%s: build context %s has no %s: %v", name, b.Context, filepath.Base(dockerfile), err)
			continue
		}
		for _, want := range []string{"./cmd/beeuni", "CGO_ENABLED=0", `ENTRYPOINT ["/usr/local/bin/beeuni"]`, "USER "} {
			if !strings.Contains(string(body), want) {
				d.errorf("%s: %s lacks %q", name, dockerfile, want)
			}
		}
		// A user named in compose must exist in the image.
		if u := d.p.Services[name].User; u != "" && !strings.Contains(string(body), " "+u+" ") {
			d.errorf("%s: user %q is not created in %s", name, u, dockerfile)
		}
		// A new named volume takes the owner of the folder it is mounted
		// on: a writable one must be a folder the image makes.
		for _, v := range d.p.Services[name].Volumes {
			if v.Type == types.VolumeTypeVolume && !v.ReadOnly && !strings.Contains(string(body), " "+v.Target+" ") {
				d.errorf("%s: volume %s is mounted on %s, a folder %s does not make (its owner would be root)", name, v.Source, v.Target, dockerfile)
			}
		}
	}
}

func (d *deployment) checkVolumes() {
	used := map[string]bool{}
	writers := map[string][]string{}
	for _, name := range d.names() {
		for _, v := range d.p.Services[name].Volumes {
			switch v.Type {
			case types.VolumeTypeVolume:
				if _, ok := d.p.Volumes[v.Source]; !ok {
					d.errorf("%s: volume %q is not declared under volumes:", name, v.Source)
				}
				used[v.Source] = true
				if !v.ReadOnly {
					writers[v.Source] = append(writers[v.Source], name)
				}
			case types.VolumeTypeBind:
				if !v.ReadOnly {
					d.errorf("%s: bind mount %s is writable: mount host folders read-only", name, v.Source)
				}
			}
		}
	}
	for v, ws := range writers {
		if len(ws) > 1 {
			d.errorf("volume %q is mounted read-write by %v: each process needs its own data folder", v, ws)
		}
	}
	for v := range d.p.Volumes {
		if !used[v] {
			d.errorf("volume %q is declared and used by no service", v)
		}
	}
}

func (d *deployment) checkDependsOn() {
	for _, name := range d.names() {
		for dep, c := range d.p.Services[name].DependsOn {
			s, ok := d.p.Services[dep]
			switch {
			case !ok:
				d.errorf("%s: depends on %s, which is not a service", name, dep)
			case s.HealthCheck == nil || s.HealthCheck.Disable:
				d.errorf("%s: depends on %s, which has no health check", name, dep)
			case c.Condition != types.ServiceConditionHealthy:
				d.errorf("%s: depends on %s with condition %q, want service_healthy", name, dep, c.Condition)
			}
		}
	}
}

func (d *deployment) checkPorts() {
	owner := map[string]string{}
	for _, name := range d.names() {
		_, serves := d.listenPorts(name)
		for _, p := range d.p.Services[name].Ports {
			proto := p.Protocol
			if proto == "" {
				proto = "tcp"
			}
			key := p.HostIP + ":" + p.Published + "/" + proto
			if p.Published != "" {
				if o, ok := owner[key]; ok {
					d.errorf("host port %s/%s is published by both %s and %s", p.Published, proto, o, name)
				}
				owner[key] = name
			}
			if !slices.Contains(serves, int(p.Target)) {
				d.errorf("%s: publishes container port %d, where it serves nothing (it serves %v)", name, p.Target, serves)
			}
		}
	}
}

// checkNATS checks the cluster: three JetStream nodes, unique names, one
// cluster name, routes naming exactly the NATS services on their cluster
// ports, storage on a volume.
func (d *deployment) checkNATS() {
	if len(d.nats) != 3 {
		d.errorf("%d NATS services, want a 3-node cluster", len(d.nats))
	}
	want := map[string]bool{}
	names := map[string]string{}
	for svc, o := range d.nats {
		want[fmt.Sprintf("%s:%d", svc, o.Cluster.Port)] = true
		if o.ServerName == "" || names[o.ServerName] != "" {
			d.errorf("%s: server name %q is empty or also used by %s", svc, o.ServerName, names[o.ServerName])
		}
		names[o.ServerName] = svc
	}
	var cluster string
	for _, svc := range slices.Sorted(maps.Keys(d.nats)) {
		o := d.nats[svc]
		if !o.JetStream {
			d.errorf("%s: JetStream is off: add -js", svc)
		}
		if o.HTTPPort == 0 {
			d.errorf("%s: no monitoring port (-m) for the health check", svc)
		}
		if cluster == "" {
			cluster = o.Cluster.Name
		}
		if o.Cluster.Name == "" || o.Cluster.Name != cluster {
			d.errorf("%s: cluster name %q, want one name on every node (%q)", svc, o.Cluster.Name, cluster)
		}
		if _, ok := d.mountOf(svc, o.StoreDir); !ok || o.StoreDir == "" {
			d.errorf("%s: JetStream store %q is in no volume: its data would be lost with the container", svc, o.StoreDir)
		}
		got := map[string]bool{}
		for _, r := range o.Routes {
			got[r.Host] = true
		}
		if !maps.Equal(got, want) {
			d.errorf("%s: routes %v, want one to each NATS service's cluster port %v", svc, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

// checkBeeuni checks the controller and executors agree with each other and
// with the cluster.
func (d *deployment) checkBeeuni() {
	ctlName, ctl := "", beeuniCmd{}
	for name, c := range d.beeuni {
		if c.name == "controller" {
			ctlName, ctl = name, c
		}
	}
	if ctlName == "" {
		d.errorf("no service runs beeuni controller")
		return
	}
	if r, _ := strconv.Atoi(ctl.flags["replicas"]); r != len(d.nats) {
		d.errorf("%s: --replicas %s, want %d (one copy per NATS node)", ctlName, ctl.flags["replicas"], len(d.nats))
	}
	if m, ok := d.mountOf(ctlName, ctl.flags["data"]); !ok || m.Type != types.VolumeTypeVolume {
		d.errorf("%s: --data %s is in no volume", ctlName, ctl.flags["data"])
	}
	signing := ctl.flags["signing-key"]
	if signing == "" {
		signing = path.Join(ctl.flags["data"], "signing.key")
	}
	keyMount, keyOK := d.mountOf(ctlName, signing)
	if !keyOK {
		d.errorf("%s: signing key %s is in no volume", ctlName, signing)
	}
	d.checkEnv(ctlName, "BEEUNI_CONTROLLER_TOKEN", "BEEUNI_EXECUTOR_TOKEN")
	executors := 0
	ids := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(d.beeuni)) {
		c := d.beeuni[name]
		d.checkNATSURLs(name, c.flags["nats"])
		if c.flags["project"] != ctl.flags["project"] {
			d.errorf("%s: --project %q, the controller's is %q", name, c.flags["project"], ctl.flags["project"])
		}
		if c.name != "executor" {
			continue
		}
		executors++
		d.checkEnv(name, "BEEUNI_EXECUTOR_TOKEN", "BEEUNI_CONTROLLER_TOKEN", "BEEUNI_HOOK_SECRET")
		if o := ids[c.flags["id"]]; c.flags["id"] == "" || o != "" {
			d.errorf("%s: --id %q is empty or also used by %s", name, c.flags["id"], o)
		}
		ids[c.flags["id"]] = name
		if m, ok := d.mountOf(name, c.flags["data"]); !ok || m.Type != types.VolumeTypeVolume || m.ReadOnly {
			d.errorf("%s: --data %s is in no writable volume", name, c.flags["data"])
		}
		if d.p.Services[name].User == d.p.Services[ctlName].User {
			d.errorf("%s: runs as the controller's user %q: tool code could read the signing key; set user: sandbox", name, d.p.Services[name].User)
		}
		trust := c.flags["trust-key"]
		m, ok := d.mountOf(name, trust)
		switch {
		case trust == "":
			d.errorf("%s: no --trust-key: releases would not be checked against the controller's key", name)
		case !ok:
			d.errorf("%s: --trust-key %s is in no volume mounted in %s", name, trust, name)
		case keyOK && (m.Source != keyMount.Source || rel(m.Target, trust) != rel(keyMount.Target, signing)+".pub"):
			d.errorf("%s: --trust-key %s (volume %s) is not the public key the controller writes beside %s (volume %s)", name, trust, m.Source, signing, keyMount.Source)
		case !m.ReadOnly:
			d.errorf("%s: the trusted key's volume %s is writable: mount it :ro", name, m.Source)
		}
	}
	if executors < 2 {
		d.errorf("%d executors, want at least two", executors)
	}
}

// checkEnv checks that service name takes its token from its own variable
// (want), and that no other component's credential is in its environment
// (an executor's reaches the tool host).
func (d *deployment) checkEnv(name, want string, foreign ...string) {
	env := d.p.Services[name].Environment
	if _, ok := env[want]; !ok {
		d.errorf("%s: no %s in its environment: its --token cannot be set without editing the command", name, want)
	}
	for _, f := range foreign {
		if _, ok := env[f]; ok {
			d.errorf("%s: %s is in its environment: it is another component's credential", name, f)
		}
	}
}

// checkNATSURLs checks a --nats list names every NATS service on its client port.
func (d *deployment) checkNATSURLs(name, list string) {
	seen := map[string]bool{}
	for _, raw := range strings.Split(list, ",") {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "nats" {
			d.errorf("%s: --nats URL %q is not nats://host:port", name, raw)
			continue
		}
		o, ok := d.nats[u.Hostname()]
		port := 4222
		if ok && o.Port != 0 {
			port = o.Port
		}
		if !ok || u.Port() != strconv.Itoa(port) {
			d.errorf("%s: --nats URL %q names no NATS service's client port", name, raw)
			continue
		}
		seen[u.Hostname()] = true
	}
	if len(seen) != len(d.nats) {
		d.errorf("%s: --nats names %d of %d NATS nodes: list them all so it can fail over", name, len(seen), len(d.nats))
	}
}

// mountOf returns the mount of service name that holds path p.
func (d *deployment) mountOf(name, p string) (types.ServiceVolumeConfig, bool) {
	if p == "" {
		return types.ServiceVolumeConfig{}, false
	}
	for _, v := range d.p.Services[name].Volumes {
		if p == v.Target || strings.HasPrefix(p, strings.TrimSuffix(v.Target, "/")+"/") {
			return v, true
		}
	}
	return types.ServiceVolumeConfig{}, false
}

func rel(base, p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, base), "/") }
