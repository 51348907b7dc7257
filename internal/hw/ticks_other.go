//go:build !amd64

package hw

import "time"

// TickUnit names what Ticks counts on this GOARCH.
const TickUnit = "ns"

var epoch = time.Now()

// Ticks is the pure-Go fallback for GOARCHes without the assembly helper: it
// counts nanoseconds on the monotonic clock, so Calibrate returns about 1 and
// the tables are in nanoseconds rather than cycles.
func Ticks() uint64 { return uint64(time.Since(epoch)) }
