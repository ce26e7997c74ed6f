package loader

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenTree is the project every testdata/manifests/*.yaml is read in, as
// beeuni.yaml.
func goldenTree(manifest []byte) fstest.MapFS {
	return fstest.MapFS{
		"beeuni.yaml":           {Data: manifest},
		"tools/lookup_order.ts": {Data: []byte("export default {}")},
		"tools/web_search.ts":   {Data: []byte("export default {}")},
	}
}

// render is what a golden file holds for one manifest on one harness.
func render(p *Project) string {
	var b strings.Builder
	b.WriteString("harness: " + string(p.Harness()) + "\ntools:\n")
	for _, t := range p.Tools {
		b.WriteString("  " + t.Name + " | " + string(t.Kind) + " | " + t.Source + "\n")
	}
	b.WriteString("removed: " + strings.Join(p.Removed, ", ") + "\nfindings:\n")
	for _, f := range p.Findings {
		b.WriteString("  " + f.String() + "\n")
	}
	return b.String()
}

func TestGoldenManifests(t *testing.T) {
	paths, err := filepath.Glob("testdata/manifests/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests under testdata/manifests: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, h := range []Harness{HarnessDefault, HarnessExperimental} {
				got.WriteString(render(Read(goldenTree(data), h)))
			}
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./loader -run TestGoldenManifests -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got.String(), want)
			}
		})
	}
}
