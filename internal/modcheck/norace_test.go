//go:build !race

package modcheck

const raceEnabled = false
