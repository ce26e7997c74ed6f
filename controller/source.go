package controller

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/beeuni/beeuni/internal/redact"
)

// maxCovers bounds how many commits a record lists as covered by a burst.
const maxCovers = 100

// source is the watched branch: a local repository read in place (never its
// work tree), or a remote one fetched into a bare mirror in the data folder.
type source struct {
	url    string // as given by --repo, credentials included: only for fetching
	shown  string // url without its credentials, for messages
	branch string
	dir    string // the repository go-git reads
	remote bool
}

func newSource(repo, branch, dataDir string) (*source, error) {
	if repo == "" {
		return nil, errors.New("watch repository: --repo is empty: pass a local path or a Git URL")
	}
	if isURL(repo) {
		return &source{url: repo, shown: redact.URL(repo), branch: branch, dir: filepath.Join(dataDir, "mirror.git"), remote: true}, nil
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		return nil, fmt.Errorf("watch repository %s: %w", redact.URL(repo), err)
	}
	return &source{url: abs, shown: abs, branch: branch, dir: abs}, nil
}

func isURL(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "git@")
}

// head fetches (for a remote) and returns the branch's head commit.
func (s *source) head(ctx context.Context) (*git.Repository, *object.Commit, error) {
	var repo *git.Repository
	var err error
	if s.remote {
		repo, err = s.fetch(ctx)
	} else {
		repo, err = git.PlainOpenWithOptions(s.dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open repository %s: %w (check --repo)", s.shown, err)
	}
	ref, err := repo.Reference(s.ref(), true)
	if err != nil {
		return nil, nil, fmt.Errorf("read branch %s of %s: %w (check --branch)", s.branch, s.shown, err)
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, nil, fmt.Errorf("read commit %s of %s: %w (the repository may be corrupt)", ref.Hash(), s.shown, err)
	}
	return repo, c, nil
}

// localHead is the branch head of a local repository, read without
// fetching; "" for a remote one (reading it means a fetch) or on error.
func (s *source) localHead() string {
	if s.remote {
		return ""
	}
	repo, err := git.PlainOpenWithOptions(s.dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return ""
	}
	ref, err := repo.Reference(s.ref(), true)
	if err != nil {
		return ""
	}
	return ref.Hash().String()
}

// ref is the reference the branch's head is read from.
func (s *source) ref() plumbing.ReferenceName {
	if s.remote {
		return plumbing.NewRemoteReferenceName("origin", s.branch)
	}
	return plumbing.NewBranchReferenceName(s.branch)
}

func (s *source) fetch(ctx context.Context) (*git.Repository, error) {
	repo, err := git.PlainOpen(s.dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		if err := os.MkdirAll(filepath.Dir(s.dir), 0o755); err != nil {
			return nil, err
		}
		repo, err = git.PlainInit(s.dir, true)
		if err == nil {
			_, err = repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{s.url}})
		}
	}
	if err != nil {
		return nil, err
	}
	spec := config.RefSpec(fmt.Sprintf("+refs/heads/%s:refs/remotes/origin/%s", s.branch, s.branch))
	err = repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}, Force: true})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		// go-git may quote the URL it was given in err: redact all of it.
		return nil, errors.New(redact.Text(fmt.Sprintf("fetch %s: %v", s.shown, err)))
	}
	return repo, nil
}

// covers lists the commits from head back to (not including) since, newest
// first, so a record says which merges of a burst it holds. A commit it
// cannot read is an error: a partial walk would look like a complete one.
func covers(repo *git.Repository, head *object.Commit, since string) ([]string, error) {
	if since == "" {
		return nil, nil
	}
	iter, err := repo.Log(&git.LogOptions{From: head.Hash})
	if err != nil {
		return nil, fmt.Errorf("walk history from commit %s: %w (the repository may be corrupt)", head.Hash, err)
	}
	defer iter.Close()
	var out []string
	err = iter.ForEach(func(c *object.Commit) error {
		if c.Hash.String() == since || len(out) >= maxCovers {
			return storer.ErrStop
		}
		out = append(out, c.Hash.String())
		return nil
	})
	if err != nil {
		// The walk fails reading a parent of the last commit it gave.
		last := head.Hash.String()
		if len(out) > 0 {
			last = out[len(out)-1]
		}
		return nil, fmt.Errorf("read the parents of commit %s: %w (the repository may be corrupt)", last, err)
	}
	if len(out) <= 1 {
		return nil, nil
	}
	return out, nil
}
