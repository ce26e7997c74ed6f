//go:build race

package modcheck

// raceEnabled: this test binary, and so its check child, runs under the
// race detector, whose shadow memory cannot live within an address-space
// limit. The real check process is never built with -race.
const raceEnabled = true
