//go:build race

package model

// raceSlowdown scales the generous bounds of the tests that check a time
// limit holds: the race detector runs code several times slower.
const raceSlowdown = 10
