//go:build linux

package harness

// flushICache is a no-op on x86-64, whose instruction fetch snoops stores.
func flushICache(code mapping) {}

// counterHz returns 0: the TSC's rate is measured.
func counterHz() uint64 { return 0 }
