//go:build !race

package jshost

const raceSlowdown = 1
