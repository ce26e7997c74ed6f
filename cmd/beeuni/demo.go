package main

import (
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/beeuni/beeuni/examples"
)

// makeDemoRepo writes the embedded demo project to dir and commits it on
// main, so `beeuni up --demo` needs nothing but the binary.
func makeDemoRepo(dir string) error {
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	demo, err := fs.Sub(examples.Demo, "demo")
	if err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	if err := os.CopyFS(tmp, demo); err != nil {
		return fmt.Errorf("make the demo repository in %s: %w", tmp, err)
	}
	repo, err := git.PlainInitWithOptions(tmp, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"}})
	if err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	if err := wt.AddGlob("."); err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	sig := &object.Signature{Name: "beeuni up", Email: "beeuni@localhost", When: time.Now()}
	if _, err := wt.Commit("The beeuni demo project", &git.CommitOptions{Author: sig}); err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	// The copy is made in a temp folder and renamed, so an interrupted
	// first run leaves no half-made repository to reuse.
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("make the demo repository: %w", err)
	}
	return nil
}

// currentBranch is the branch the repository at dir has checked out, or main.
func currentBranch(dir string) string {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return "main"
	}
	head, err := repo.Head()
	if err != nil || !head.Name().IsBranch() {
		return "main"
	}
	return head.Name().Short()
}
