package loader

import (
	"fmt"
	"strings"
	"testing"
)

// TestSpecsLegacy: only a module of the legacy folder on the default
// runtime is loaded as Legacy (where opencode's form loads).
func TestSpecsLegacy(t *testing.T) {
	files := map[string]string{
		"beeuni.yaml":     "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n  old: harnesses/opencode/tools/old.ts\n  mine: tools/mine.ts\n",
		"tools/lookup.ts": "", "tools/mine.ts": "",
		"harnesses/opencode/tools/lookup.ts": "", "harnesses/opencode/tools/old.ts": "",
	}
	for h, want := range map[Harness]string{
		HarnessDefault:      "web_search beeuni:web_search false,lookup harnesses/opencode/tools/lookup.ts true,old harnesses/opencode/tools/old.ts true,mine tools/mine.ts false",
		HarnessExperimental: "web_search beeuni:web_search false,lookup tools/lookup.ts false,old harnesses/opencode/tools/old.ts false,mine tools/mine.ts false",
	} {
		var got []string
		for _, s := range Read(mapFS(t, files), h).Specs() {
			got = append(got, fmt.Sprintf("%s %s %v", s.Name, s.Source, s.Legacy))
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s:\n got %s\nwant %s", h, strings.Join(got, ","), want)
		}
	}
}
