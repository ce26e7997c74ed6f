package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/beeuni/beeuni/events"
)

// maxSecretBytes bounds a secret value: far below the NATS message limit,
// far above any token or key.
const maxSecretBytes = 64 << 10

// secrets dispatches `beeuni secrets SUBCOMMAND`.
func (a *app) secrets(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.secretsUsage()
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] != "set" {
		a.errorf(nil, "secrets: unknown subcommand %q", args[0])
		a.secretsUsage()
		return exitUsage
	}
	return a.secretsSet(ctx, args[1:])
}

func (a *app) secretsUsage() {
	fmt.Fprintf(a.stderr, "Usage: beeuni secrets set NAME=- [--nats URL] [--project NAME] [--dir DIR]\n\n"+
		"Reads the value of secret NAME from standard input and stores it for the project's fleet:\n"+
		"  printf %%s \"$TOKEN\" | beeuni secrets set API_TOKEN=-\n"+
		"Agents granted the secret (agents.<name>.secrets in beeuni.yaml) see it in context.env.\n")
}

func (a *app) secretsSet(ctx context.Context, args []string) int {
	fs := a.newFlags("secrets set", "secrets set NAME=- [--nats URL] [--project NAME] [--dir DIR]")
	var n netCmd
	a.addNetCmdFlags(fs, &n, false)
	pos, code, ok := parseOrUsage(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		a.errorf(nil, "secrets set: want one NAME=- argument, got %d", len(pos))
		a.secretsUsage()
		return exitUsage
	}
	name, value, hasEq := strings.Cut(pos[0], "=")
	if !hasEq {
		a.errorf(nil, "secrets set: write %s=- and give the value on standard input", pos[0])
		return exitUsage
	}
	if value != "-" {
		// Never echo the argument: it holds the value.
		a.errorf(nil, "secrets set: refusing a secret value on the command line, where it lands in shell history and process lists: "+
			"write %s=- and give the value on standard input, e.g. printf %%s \"$VALUE\" | beeuni secrets set %s=-", name, name)
		return exitUsage
	}
	if err := events.CheckSecretName(name); err != nil {
		a.errorf(nil, "secrets set: %v", err)
		return exitUsage
	}
	s, err := a.dialOp(ctx, &n, "secrets set")
	if err != nil {
		return a.opFail(err)
	}
	defer s.close()
	if f, ok := a.stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintf(a.stderr, "Type the value of %s, then press Enter and Ctrl-D:\n", name)
		}
	}
	secret, err := readSecret(a.stdin)
	if err != nil {
		a.errorf(nil, "secrets set %s: %v", name, err)
		return exitFailure
	}
	if err := s.bus.SetSecret(ctx, s.project, name, secret); err != nil {
		return a.opFail(err)
	}
	fmt.Fprintf(a.stdout, "Secret %s set for project %s (%d bytes). Agents granted it see it in context.env at their next call.\n",
		name, s.project, len(secret))
	return exitOK
}

// errSecretTooLarge: the value read exceeds maxSecretBytes.
var errSecretTooLarge = fmt.Errorf("the value is longer than %d bytes; store a reference to a larger value instead", maxSecretBytes)

// readSecret reads the value from r and trims one trailing newline (as
// `echo` adds), nothing else: spaces may be part of a secret.
func readSecret(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxSecretBytes+2))
	if err != nil {
		return "", fmt.Errorf("read the value from standard input: %w", err)
	}
	v := string(b)
	if t, ok := strings.CutSuffix(v, "\n"); ok {
		v = strings.TrimSuffix(t, "\r")
	}
	if len(v) > maxSecretBytes {
		return "", errSecretTooLarge
	}
	if v == "" {
		return "", errors.New("standard input was empty: pipe the value in, e.g. printf %s \"$VALUE\" | beeuni secrets set NAME=-")
	}
	return v, nil
}
