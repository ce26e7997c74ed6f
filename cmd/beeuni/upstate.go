package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// upStateFile is where `beeuni up` records what it serves, in its data
// folder, so operator commands run beside it find the project and NATS
// without flags.
const upStateFile = "up.json"

// defaultDataDir is `beeuni up`'s --data default, the folder operator
// commands look for.
const defaultDataDir = ".beeuni"

// upState is what a `beeuni up` records (DATA/up.json).
type upState struct {
	Project string `json:"project"`
	NATS    string `json:"nats"`
	Repo    string `json:"repo"`
	Listen  string `json:"listen"`
}

func writeUpState(dataDir string, s upState) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dataDir, upStateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("record what beeuni up serves: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dataDir, upStateFile))
}

// readUpState reads DATA/up.json of the folder d, if there is one.
func readUpState(d string) (upState, bool) {
	b, err := os.ReadFile(filepath.Join(d, defaultDataDir, upStateFile))
	if err != nil {
		return upState{}, false
	}
	var s upState
	if json.Unmarshal(b, &s) != nil || s.Project == "" {
		return upState{}, false
	}
	return s, true
}

// upStateFor is the `beeuni up` that serves the folder dir: the nearest
// folder from dir upward holding .beeuni/up.json, when that folder is the
// repository dir is in (`up` was run there, `--demo` in a clone included),
// or the repository it serves is the one dir is in (the demo repository
// in .beeuni/demo), or dir is in no repository.
func upStateFor(dir string) (upState, bool) {
	repo := gitRoot(dir)
	for d := dir; ; d = filepath.Dir(d) {
		if s, ok := readUpState(d); ok {
			if repo == "" || s.Repo == repo || d == repo {
				return s, true
			}
			return upState{}, false
		}
		if filepath.Dir(d) == d {
			return upState{}, false
		}
	}
}

// gitRoot is the nearest folder from dir upward with a .git, "" if none.
func gitRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
