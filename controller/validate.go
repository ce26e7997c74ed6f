package controller

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/release"
)

// validate applies the manifest rules to rec's tree, records the resolved
// tool set, and loads every project module that changed since prev, so a
// commit whose tool cannot even be bundled is reported in its record.
// Manifest errors reject the release; a module that does not load is a
// warning (the fleet leaves that one tool out, as the executor would).
// It returns the bundle pack of the project modules when it made a new one
// (rec.Bundles names it); prev's is kept when no module changed.
func (c *Controller) validate(ctx context.Context, rrepo *release.Repo, rec *release.Record, prev *release.Record) []byte {
	project := loader.Read(rrepo.FS(ctx, rec.Entries), c.cfg.Harness)
	for _, f := range project.Findings {
		rf := release.Finding{File: f.File, Line: f.Line, Severity: release.Severity(f.Severity), Message: f.Message}
		if f.Severity == loader.SeverityError {
			rec.Findings = append(rec.Findings, rf)
		} else {
			rec.Warnings = append(rec.Warnings, rf)
		}
	}
	digests := make(map[string]string, len(rec.Entries))
	for _, e := range rec.Entries {
		digests[e.Path] = e.Digest
	}
	for _, t := range project.Tools {
		ref := release.ToolRef{Name: t.Name, Kind: string(t.Kind), Source: t.Source}
		if !t.IsBuiltin() {
			ref.Digest = digests[t.Source]
		}
		rec.Tools = append(rec.Tools, ref)
	}
	if project.HasErrors() {
		return nil
	}
	changed := changedModules(project, rec, prev)
	if len(changed) == 0 {
		if prev != nil && len(projectSpecs(project)) > 0 {
			rec.Bundles = prev.Bundles // the same modules of the same files
		}
		return nil
	}
	scratch, err := os.MkdirTemp(c.cfg.DataDir, "validate-")
	if err != nil {
		c.notChecked(rec, changed, fmt.Errorf("make a scratch folder to load modules in: %w", err))
		return nil
	}
	defer os.RemoveAll(scratch)
	dst := filepath.Join(scratch, "tree")
	if err := release.WriteTree(dst, rec, rrepo.ContentOpener(ctx, rec.Entries)); err != nil {
		c.notChecked(rec, changed, fmt.Errorf("lay the release out to load its modules: %w", err))
		return nil
	}
	if c.cfg.CheckModules == nil {
		return c.pack(rec, dst, projectSpecs(project), nil)
	}
	failures, described, err := c.cfg.CheckModules(ctx, dst, changed)
	if err != nil {
		c.notChecked(rec, changed, err)
	}
	for _, f := range failures {
		rec.Warnings = append(rec.Warnings, release.Finding{File: f.Source, Severity: release.SeverityWarning,
			Message: fmt.Sprintf("tool %s does not load: %s", f.Name, f.Reason)})
	}
	return c.pack(rec, dst, projectSpecs(project), metasByPath(changed, described, c.log))
}

// metasByPath are the descriptions the check gave, by module path, for
// the modules loaded in the ordinary form (the opencode form's is made by
// the executor's host).
func metasByPath(specs []jshost.Spec, described map[string]jshost.Meta, log *slog.Logger) map[string][]byte {
	out := map[string][]byte{}
	for _, s := range specs {
		m, ok := described[s.Name]
		if !ok || s.Legacy {
			continue
		}
		b, err := json.Marshal(m)
		if err != nil {
			log.Warn("encode a module's description; executors evaluate the module", "tool", s.Name, "error", err)
			continue
		}
		out[s.Path] = b
	}
	return out
}

// notChecked records that specs could not be load-checked, and why. The
// executors still load every module and report what fails.
func (c *Controller) notChecked(rec *release.Record, specs []jshost.Spec, err error) {
	c.log.Error("modules were not load-checked", "release", rec.ID, "error", err)
	for _, s := range specs {
		rec.Warnings = append(rec.Warnings, release.Finding{File: s.Source, Severity: release.SeverityWarning,
			Message: fmt.Sprintf("tool %s was not load-checked: %v", s.Name, err)})
	}
}

// pack bundles specs from the tree laid out at root, in this process
// (esbuild runs no module code), into the pack rec.Bundles names, with
// the modules' descriptions in metas (by path). The bundler is kept
// between builds: modules that did not change are found in its cache,
// with the description an earlier check gave. A pack that cannot be made
// is no error: executors bundle.
func (c *Controller) pack(rec *release.Record, root string, specs []jshost.Spec, metas map[string][]byte) []byte {
	entries := make([]string, 0, len(specs))
	for _, s := range specs {
		entries = append(entries, s.Path)
	}
	b, err := c.bundler.Pack(root, entries, metas)
	if err != nil || b == nil {
		if err != nil {
			c.log.Warn("bundle the modules for the fleet; executors bundle them", "release", rec.ID, "error", err)
		}
		return nil
	}
	sum := sha256.Sum256(b)
	rec.Bundles = &release.Blob{Digest: hex.EncodeToString(sum[:]), Size: int64(len(b))}
	return b
}

// changedModules are the project modules whose content (or the tool they
// serve) is new in rec. A module's own imports are not tracked: any change
// to a non-module file outside the manifest counts as a change to all.
func changedModules(p *loader.Project, rec, prev *release.Record) []jshost.Spec {
	if prev == nil {
		return projectSpecs(p)
	}
	old := map[string]string{}
	for _, t := range prev.Tools {
		old[t.Name] = t.Source + "@" + t.Digest
	}
	if filesChanged(rec, prev) {
		return projectSpecs(p)
	}
	var out []jshost.Spec
	for _, s := range projectSpecs(p) {
		var digest string
		for _, t := range rec.Tools {
			if t.Name == s.Name {
				digest = t.Digest
			}
		}
		if old[s.Name] != s.Source+"@"+digest {
			out = append(out, s)
		}
	}
	return out
}

// filesChanged reports whether a file other than a manifest was added,
// removed or changed: such a
// file may be imported by any module.
func filesChanged(rec, prev *release.Record) bool {
	d := release.Diff(prev, rec)
	paths := make([]string, 0, len(d.FilesAdded)+len(d.FilesRemoved)+len(d.FilesChanged))
	for _, e := range append(d.FilesAdded, d.FilesRemoved...) {
		paths = append(paths, e.Path)
	}
	for _, e := range d.FilesChanged {
		paths = append(paths, e.Path)
	}
	for _, p := range paths {
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return true
		}
	}
	return false
}

func projectSpecs(p *loader.Project) []jshost.Spec {
	var out []jshost.Spec
	for _, s := range p.Specs() {
		if s.Code == nil {
			out = append(out, s)
		}
	}
	return out
}
