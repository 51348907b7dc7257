package hw

// TickUnit names what Ticks counts on this GOARCH.
const TickUnit = "TSC cycles"

// Ticks reads the time-stamp counter with RDTSCP, which waits for every
// earlier instruction to finish before reading it (later ones may start
// early, which matters only for windows of a few cycles; the benchmarks time
// loops of millions of calls). On parts with constant_tsc and nonstop_tsc
// the counter runs at the nominal frequency whatever the current clock, so
// these are "reference cycles", the unit perf's ref-cycles and the kernel's
// own microbenchmarks report.
func Ticks() uint64
