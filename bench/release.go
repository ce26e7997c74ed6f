package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/beeuni/beeuni/release"
)

// genRepo is a generated repository of n files and two commits: the second
// changes one file.
type genRepo struct {
	dir    string
	c1, c2 plumbing.Hash
	packed bool
}

// generateRepo makes a repository of n files (about 600 bytes each, 25 per
// folder, two folder levels) and two commits, the second changing one file,
// like release's BenchmarkBuild. With git installed the objects are packed
// by `git gc`, as in a clone.
func generateRepo(ctx context.Context, dir string, n int, gitPath string) (*genRepo, error) {
	g, err := git.PlainInit(dir, false)
	if err != nil {
		return nil, fmt.Errorf("init repository: %w", err)
	}
	w := &objWriter{r: g}
	const perDir, dirsPerTop = 25, 20
	type dirKey struct{ top, sub int }
	files := map[dirKey][]object.TreeEntry{}
	for i := range n {
		k := dirKey{i / (perDir * dirsPerTop), (i / perDir) % dirsPerTop}
		body := strings.Repeat(fmt.Sprintf("line %d of file %d: some configuration text\n", i%7, i), 12)
		files[k] = append(files[k], object.TreeEntry{Name: fmt.Sprintf("f%05d.ts", i), Mode: filemode.Regular, Hash: w.blob(body)})
	}
	commitWith := func(changed plumbing.Hash) plumbing.Hash {
		tops := map[int][]object.TreeEntry{}
		for k, es := range files {
			if changed != plumbing.ZeroHash && k.top == 0 && k.sub == 0 {
				es = append([]object.TreeEntry{{Name: es[0].Name, Mode: filemode.Regular, Hash: changed}}, es[1:]...)
			}
			tops[k.top] = append(tops[k.top], object.TreeEntry{Name: fmt.Sprintf("s%02d", k.sub), Mode: filemode.Dir, Hash: w.tree(es)})
		}
		var root []object.TreeEntry
		for top, es := range tops {
			sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
			root = append(root, object.TreeEntry{Name: fmt.Sprintf("d%03d", top), Mode: filemode.Dir, Hash: w.tree(es)})
		}
		sort.Slice(root, func(i, j int) bool { return root[i].Name < root[j].Name })
		root = append(root, object.TreeEntry{Name: "zz-beeuni.yaml", Mode: filemode.Regular, Hash: w.blob("tools: []\n")})
		return w.tree(root)
	}
	gr := &genRepo{dir: dir}
	gr.c1 = w.commit(commitWith(plumbing.ZeroHash), "one")
	gr.c2 = w.commit(commitWith(w.blob("changed content\n")), "two", gr.c1)
	if w.err != nil {
		return nil, fmt.Errorf("generate repository: %w", w.err)
	}
	if err := g.Storer.SetReference(plumbing.NewHashReference("refs/heads/master", gr.c2)); err != nil {
		return nil, err
	}
	if err := g.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/master")); err != nil {
		return nil, err
	}
	if gitPath != "" {
		if out, err := exec.CommandContext(ctx, gitPath, "-C", dir, "gc", "--quiet").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git gc: %v: %s", err, out)
		}
		gr.packed = true
	}
	return gr, nil
}

// objWriter stores raw objects and keeps the first error.
type objWriter struct {
	r   *git.Repository
	err error
	sec int
}

func (w *objWriter) store(t plumbing.ObjectType, data []byte) plumbing.Hash {
	o := w.r.Storer.NewEncodedObject()
	o.SetType(t)
	ow, err := o.Writer()
	if err == nil {
		_, err = ow.Write(data)
		err = errors.Join(err, ow.Close())
	}
	if err != nil && w.err == nil {
		w.err = err
	}
	h, err := w.r.Storer.SetEncodedObject(o)
	if err != nil && w.err == nil {
		w.err = err
	}
	return h
}

func (w *objWriter) blob(s string) plumbing.Hash { return w.store(plumbing.BlobObject, []byte(s)) }

// tree stores entries as given (callers sort them).
func (w *objWriter) tree(entries []object.TreeEntry) plumbing.Hash {
	var raw bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&raw, "%o %s\x00", uint32(e.Mode), e.Name)
		raw.Write(e.Hash[:])
	}
	return w.store(plumbing.TreeObject, raw.Bytes())
}

func (w *objWriter) commit(tree plumbing.Hash, msg string, parents ...plumbing.Hash) plumbing.Hash {
	w.sec++
	sig := object.Signature{Name: "Bench", Email: "bench@example.com", When: time.Date(2026, 1, 2, 3, 4, w.sec, 0, time.UTC)}
	c := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree, ParentHashes: parents}
	o := w.r.Storer.NewEncodedObject()
	if err := c.Encode(o); err != nil && w.err == nil {
		w.err = err
	}
	h, err := w.r.Storer.SetEncodedObject(o)
	if err != nil && w.err == nil {
		w.err = err
	}
	return h
}

func (r *run) release(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioRelease, Title: "release builds of generated repositories",
		Baselines: []string{"git ls-tree -r + cat-file --batch"}}
	if r.git == "" {
		sc.note("git not found on PATH: objects stay loose and the git baseline is skipped")
	}
	for _, n := range r.sizes.RepoFiles {
		dir, err := r.scratch(fmt.Sprintf("repo%d", n))
		if err != nil {
			return nil, err
		}
		r.progress("release: generating a %d-file repository", n)
		gr, err := generateRepo(ctx, dir, n, r.git)
		if err != nil {
			return nil, err
		}
		var warm, cold, incr, base []float64
		repo, err := release.OpenRepo(dir)
		if err != nil {
			return nil, err
		}
		prev, err := repo.Build(ctx, gr.c1, nil)
		if err != nil {
			repo.Close()
			return nil, err
		}
		if len(prev.Entries) != n+1 {
			repo.Close()
			return nil, fmt.Errorf("built %d entries of a %d-file repository", len(prev.Entries), n+1)
		}
		for round := range r.cfg.Rounds {
			r.progress("release: %d files, round %d/%d", n, round+1, r.cfg.Rounds)
			d, err := timed(func() error { _, err := repo.Build(ctx, gr.c2, nil); return err })
			if err != nil {
				repo.Close()
				return nil, err
			}
			warm = append(warm, ms(d))
			d, err = timed(func() error {
				c, err := release.OpenRepo(dir)
				if err != nil {
					return err
				}
				defer c.Close()
				_, err = c.Build(ctx, gr.c2, nil)
				return err
			})
			if err != nil {
				repo.Close()
				return nil, err
			}
			cold = append(cold, ms(d))
			d, err = timed(func() error { _, err := repo.Build(ctx, gr.c2, prev); return err })
			if err != nil {
				repo.Close()
				return nil, err
			}
			incr = append(incr, ms(d))
			if gr.packed {
				d, err = timed(func() error { return gitReadAll(ctx, r.git, dir, n+1) })
				if err != nil {
					repo.Close()
					return nil, err
				}
				base = append(base, ms(d))
			}
		}
		repo.Close()
		label := fmt.Sprintf("%d files", n)
		rows := []*Row{
			sc.row(label+", full (open repo + build)", "ms", "lower", cold, base),
			sc.row(label+", full (repo kept open)", "ms", "lower", warm, base),
			sc.row(label+", one file changed", "ms", "lower", incr, base),
		}
		if !gr.packed {
			for _, row := range rows {
				row.skip(0, "git not found on PATH")
			}
			sc.targetSkipped(label+": full build no slower than git", "git not found on PATH")
		} else {
			c := rows[0].Baselines[0]
			sc.target(label+": full build (open + build) no slower than git", c.Ratio <= 1,
				"%.2fx (%s ms vs %s ms)", c.Ratio, fmtNum(rows[0].Beeuni.Median), fmtNum(c.Stat.Median))
		}
		p := rows[2].Beeuni
		sc.target(label+": one-file change under 10 ms", p.Median < 10, "median %s ms, worst round %s ms", fmtNum(p.Median), fmtNum(p.Max))
	}
	sc.note("files of about 600 bytes, 25 per folder, two folder levels, packed by `git gc`; beeuni: release.OpenRepo + Repo.Build (SHA-256 of every blob, the release digest)")
	sc.note("git baseline: `git ls-tree -r HEAD`, then every blob through one `git cat-file --batch` (reads, does not hash); the same baseline is the reference of every row")
	return sc, nil
}

func timed(f func() error) (time.Duration, error) {
	start := time.Now()
	err := f()
	return time.Since(start), err
}

// gitReadAll is the baseline: `git ls-tree -r HEAD`, then every blob
// through one `git cat-file --batch`.
func gitReadAll(ctx context.Context, gitPath, dir string, want int) error {
	ls, err := exec.CommandContext(ctx, gitPath, "-C", dir, "ls-tree", "-r", "HEAD").Output()
	if err != nil {
		return fmt.Errorf("git ls-tree: %w", err)
	}
	var ids bytes.Buffer
	count := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(ls)), "\n") {
		fields := strings.Fields(line) // mode type hash\tpath
		if len(fields) >= 3 && fields[1] == "blob" {
			ids.WriteString(fields[2] + "\n")
			count++
		}
	}
	if count != want {
		return fmt.Errorf("git ls-tree listed %d blobs, want %d", count, want)
	}
	cmd := exec.CommandContext(ctx, gitPath, "-C", dir, "cat-file", "--batch")
	cmd.Stdin = &ids
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	if _, err := io.Copy(io.Discard, bufio.NewReaderSize(out, 1<<16)); err != nil {
		return err
	}
	return cmd.Wait()
}
