package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
)

// defaultNATSURL is where every networked command looks for NATS unless
// --nats or BEEUNI_NATS_URL says otherwise; `beeuni up` listens there.
const defaultNATSURL = "nats://127.0.0.1:4222"

// netFlags are the flags every networked command shares (SPEC section 2).
type netFlags struct {
	natsURL string
	project string
}

func (a *app) addNetFlags(fs *flag.FlagSet, n *netFlags) {
	def := a.getenv("BEEUNI_NATS_URL")
	if def == "" {
		def = defaultNATSURL
	}
	fs.StringVar(&n.natsURL, "nats", def, "NATS server URL (env BEEUNI_NATS_URL)")
	fs.StringVar(&n.project, "project", a.getenv("BEEUNI_PROJECT"), "project name (env BEEUNI_PROJECT; default: the repository folder's name)")
}

// resolveProject returns the project name: the flag when set, else the name
// of the Git repository folder that holds dir (or dir itself), made a NATS
// token.
func resolveProject(flagValue, dir string) string {
	if flagValue != "" {
		return flagValue
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			abs = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return projectToken(filepath.Base(abs))
}

// projectToken turns a folder or repository name into a NATS-safe token:
// letters, digits, '-' and '_'; anything else becomes '-'.
func projectToken(name string) string {
	name = strings.TrimSuffix(name, ".git")
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "project"
	}
	return b.String()
}
