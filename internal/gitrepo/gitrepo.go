// Package gitrepo makes real Git repositories on disk, with go-git, for the
// tests and benchmarks that need a project to watch: one way to write files
// and commit them, instead of a copy per package.
package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Delete as a file's content removes the file in Commit.
const Delete = "\x00delete"

// Init makes a repository at dir on branch main.
func Init(dir string) error {
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"}})
	if err != nil {
		return fmt.Errorf("git init %s: %w", dir, err)
	}
	return nil
}

// Commit writes files (slash path -> content, or Delete) into the work tree
// of the repository at dir and commits them to its branch; it returns the
// commit id. An empty files map makes an empty commit.
func Commit(dir, msg string, files map[string]string) (string, error) {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	for name, content := range files {
		if content == Delete {
			if _, err := wt.Remove(name); err != nil {
				return "", fmt.Errorf("git rm %s: %w", name, err)
			}
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return "", err
		}
		if _, err := wt.Add(name); err != nil {
			return "", fmt.Errorf("git add %s: %w", name, err)
		}
	}
	h, err := wt.Commit(msg, &git.CommitOptions{AllowEmptyCommits: true,
		Author: &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Now()}})
	if err != nil {
		return "", fmt.Errorf("git commit: %w", err)
	}
	return h.String(), nil
}
