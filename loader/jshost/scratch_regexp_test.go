package jshost

import "testing"

func TestScratchRegexp(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/probe.ts": tool(`execute() {
const SPLIT_LOWER_UPPER_RE = /([\p{Ll}\d])(\p{Lu})/gu;
const DEFAULT_STRIP_REGEXP = /[^\p{L}\d]+/giu;
let r = 'lookupOrder by ID v2'.replace(SPLIT_LOWER_UPPER_RE, "$1\0$2")
return JSON.stringify([r, r.replace(DEFAULT_STRIP_REGEXP, "\0"), SPLIT_LOWER_UPPER_RE.source, String(DEFAULT_STRIP_REGEXP)])
}`),
	}), Options{}, "tools/probe.ts")
	mustLoad(t, s)
	t.Log(call(t, s, "probe", "{}").Output)
}
