package loader

import (
	"gopkg.in/yaml.v3"
)

// The keys beeuni reads, per level: a manifest file's top level (the root
// file and every imported file) and an agent's settings.
var (
	topKeys   = []string{"tools", "agents", "imports"}
	agentKeys = []string{"tools", "secrets"}
)

// maxKeyEdits is how far an unknown key may be from a known one to be taken
// for a typo of it. Other unknown keys are left alone: beeuni.yaml may hold
// keys other systems read.
const maxKeyEdits = 2

// checkKey warns about key k when it is not one of known but is a few edits
// away from one: `tool:` is almost surely `tools:`, and silently ignoring it
// drops the user's tools or an agent's restriction.
func (r *reader) checkKey(file string, k *yaml.Node, known []string) {
	if k.Kind != yaml.ScalarNode {
		return
	}
	best, bestD := "", maxKeyEdits+1
	for _, want := range known {
		if k.Value == want {
			return
		}
		if d := editDistance(k.Value, want, maxKeyEdits); d < bestD {
			best, bestD = want, d
		}
	}
	if best != "" {
		r.warnf(file, k.Line, "unknown key %q: did you mean %q?", clip(k.Value), best)
	}
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of two neighbours each
// count one), or limit+1 once it is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], limit+1)
}
