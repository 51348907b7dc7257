//go:build !unix

package model

import "time"

var processStart = time.Now()

// cpuTime returns the wall time since the tests began where the CPU time
// is not to be had.
func cpuTime() time.Duration { return time.Since(processStart) }
