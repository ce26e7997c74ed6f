package cluster

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// composeFile is the deployment this file checks, from the repository root.
const composeFile = "docker-compose.yml"

// TestCompose loads docker-compose.yml with the Compose specification's own
// loader and checks that what it names fits together: services, build
// contexts, volumes, ports, health checks, the NATS cluster and the beeuni
// commands (parsed by the real binary).
func TestCompose(t *testing.T) {
	root := repoRoot(t)
	bin := buildBeeuni(t)
	gitRepo := newRepo(t)
	gitRepo.commit(t, "v1")
	for _, tc := range []struct {
		name     string
		env      []string
		wantRepo string
	}{
		{"defaults", nil, filepath.Join(root, "examples", "demo-repo")},
		{"BEEUNI_REPO and BEEUNI_PROJECT", []string{"BEEUNI_REPO=" + gitRepo.dir, "BEEUNI_PROJECT=acme"}, gitRepo.dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadCompose(t, root, tc.env)
			d := newDeployment(p)
			if errs := d.check(bin); len(errs) > 0 {
				t.Fatalf("%s:\n  %s", composeFile, strings.Join(errs, "\n  "))
			}
			ctl := d.beeuni["controller"]
			repo, ok := d.mountOf("controller", ctl.flags["repo"])
			if !ok || repo.Type != types.VolumeTypeBind || repo.Source != tc.wantRepo || !repo.ReadOnly {
				t.Fatalf("controller --repo %s is mounted from %+v, want %s read-only", ctl.flags["repo"], repo, tc.wantRepo)
			}
		})
	}
}

// TestComposeChecksCatch proves each check finds the fault it is for: the
// real file is loaded, broken in one place, and checked again.
func TestComposeChecksCatch(t *testing.T) {
	root := repoRoot(t)
	bin := buildBeeuni(t)
	setCmd := func(svc string, f func([]string) []string) func(*types.Project) {
		return func(p *types.Project) {
			s := p.Services[svc]
			s.Command = f(slices.Clone(s.Command))
			p.Services[svc] = s
		}
	}
	replaceArg := func(old, new string) func([]string) []string {
		return func(args []string) []string {
			if i := slices.Index(args, old); i >= 0 {
				args[i] = new
			}
			return args
		}
	}
	replace := func(old, new string) func([]string) []string {
		return func(args []string) []string {
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, old, new)
			}
			return args
		}
	}
	for _, tc := range []struct {
		name   string
		break_ func(*types.Project)
		want   string
	}{
		{"no health check", func(p *types.Project) {
			s := p.Services["nats2"]
			s.HealthCheck = nil
			p.Services["nats2"] = s
		}, "nats2: no health check"},
		{"health check on the wrong port", setCmd("executor-1", replace("0.0.0.0:7420", "0.0.0.0:7430")), "executor-1: health check probes port 7420"},
		{"missing build context", func(p *types.Project) {
			s := p.Services["controller"]
			b := *s.Build
			b.Context = filepath.Join(root, "no-such-folder")
			s.Build = &b
			p.Services["controller"] = s
		}, "controller: build context"},
		{"undeclared volume", func(p *types.Project) { delete(p.Volumes, "executor-2-data") }, `executor-2: volume "executor-2-data" is not declared`},
		{"shared writable volume", func(p *types.Project) {
			s := p.Services["executor-2"]
			s.Volumes = slices.Clone(s.Volumes)
			s.Volumes[0].Source = "executor-1-data"
			p.Services["executor-2"] = s
		}, `volume "executor-1-data" is mounted read-write by`},
		{"dependency without health check", func(p *types.Project) {
			s := p.Services["controller"]
			s.HealthCheck = &types.HealthCheckConfig{Disable: true}
			p.Services["controller"] = s
		}, "executor-1: depends on controller, which has no health check"},
		{"unknown dependency", func(p *types.Project) {
			s := p.Services["executor-1"]
			s.DependsOn = types.DependsOnConfig{"nats9": {Condition: types.ServiceConditionHealthy}}
			p.Services["executor-1"] = s
		}, "executor-1: depends on nats9, which is not a service"},
		{"port collision", func(p *types.Project) {
			s := p.Services["executor-2"]
			s.Ports = []types.ServicePortConfig{{Target: 7420, Published: "7421", Protocol: "tcp"}}
			p.Services["executor-2"] = s
		}, "host port 7421/tcp is published by both"},
		{"route to a missing node", setCmd("nats1", replace("nats://nats3:6222", "nats://nats4:6222")), "nats1: routes"},
		{"bad NATS flag", setCmd("nats3", func(a []string) []string { return append(a, "--no-such-flag") }), "nats3: nats-server"},
		{"--nats names no NATS service", setCmd("executor-2", replace("nats://nats2:4222", "nats://controller:4222")), `executor-2: --nats URL "nats://controller:4222"`},
		{"--nats on the cluster port", setCmd("controller", replace("nats://nats1:4222", "nats://nats1:6222")), `controller: --nats URL "nats://nats1:6222"`},
		{"unknown beeuni flag", setCmd("executor-1", func(a []string) []string { return append(a, "--replicas", "3") }), "executor-1: beeuni executor"},
		{"unknown beeuni command", setCmd("executor-1", func(a []string) []string { a[0] = "sandbox"; return a }), "executor-1: beeuni sandbox"},
		{"trust key outside a volume", setCmd("executor-2", replace("/trust/signing.key.pub", "/etc/signing.key.pub")), "executor-2: --trust-key /etc/signing.key.pub is in no volume"},
		{"trust key not the controller's", setCmd("executor-1", replace("/trust/signing.key.pub", "/trust/other.pub")), "executor-1: --trust-key /trust/other.pub"},
		{"executor as the controller's user", func(p *types.Project) {
			s := p.Services["executor-1"]
			s.User = ""
			p.Services["executor-1"] = s
		}, "executor-1: runs as the controller's user"},
		{"executor token in BEEUNI_TOKEN", func(p *types.Project) {
			s := p.Services["executor-2"]
			s.Environment = types.MappingWithEquals{"BEEUNI_TOKEN": s.Environment["BEEUNI_EXECUTOR_TOKEN"]}
			p.Services["executor-2"] = s
		}, "executor-2: no BEEUNI_EXECUTOR_TOKEN in its environment"},
		{"controller token given to an executor", func(p *types.Project) {
			s := p.Services["executor-1"]
			s.Environment = maps.Clone(s.Environment)
			s.Environment["BEEUNI_CONTROLLER_TOKEN"] = p.Services["controller"].Environment["BEEUNI_CONTROLLER_TOKEN"]
			p.Services["executor-1"] = s
		}, "executor-1: BEEUNI_CONTROLLER_TOKEN is in its environment"},
		{"replicas below the cluster size", setCmd("controller", replaceArg("3", "1")), "controller: --replicas 1"},
		{"projects differ", setCmd("executor-2", replace("demo", "other")), `executor-2: --project "other"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadCompose(t, root, nil)
			tc.break_(p)
			errs := newDeployment(p).check(bin)
			t.Logf("findings:\n  %s", strings.Join(errs, "\n  "))
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tc.want) }) {
				t.Fatalf("want a finding containing %q, got:\n  %s", tc.want, strings.Join(errs, "\n  "))
			}
		})
	}
}

// repoRoot is the module root, where docker-compose.yml and Dockerfile are.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		tb.Fatalf("module root: %v", err)
	}
	return root
}

// binDir holds the beeuni binary built for this package's tests; TestMain
// makes and removes it.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "beeuni-e2e-cluster-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// built builds the binary once, for the tests that need it.
var built = sync.OnceValues(func() (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	bin := filepath.Join(binDir, "beeuni")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/beeuni")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/beeuni: %w\n%s", err, out)
	}
	return bin, nil
})

// buildBeeuni returns the real binary whose flag parsing checks the commands.
func buildBeeuni(tb testing.TB) string {
	tb.Helper()
	bin, err := built()
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// loadCompose loads the compose file as `docker compose` would, with only
// env (not this process's environment) for interpolation.
func loadCompose(tb testing.TB, root string, env []string) *types.Project {
	tb.Helper()
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, composeFile)},
		cli.WithWorkingDirectory(root), cli.WithEnv(env), cli.WithResolvedPaths(true))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := opts.LoadProject(tb.Context())
	if err != nil {
		tb.Fatalf("load %s: %v", composeFile, err)
	}
	return p
}
