//go:build linux

package harness

// flushICache makes the freshly written code visible to instruction fetch.
func flushICache(code mapping) { syncICache(code.addr(), uintptr(len(code))) }

// counterHz returns CNTFRQ_EL0.
func counterHz() uint64 { return counterFreq() }
