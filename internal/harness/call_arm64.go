package harness

// counterFreq returns CNTFRQ_EL0, the counter's ticks per second.
func counterFreq() uint64

// syncICache makes freshly written code at addr visible to instruction
// fetch.
//
//go:noescape
func syncICache(addr, n uintptr)
