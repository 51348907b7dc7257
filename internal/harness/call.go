//go:build amd64 || arm64

package harness

// callJIT runs the generated function at code with context ctx
// (call_amd64.s, call_arm64.s).
//
//go:noescape
func callJIT(code, ctx uintptr)

// readCounter reads the cycle counter the timebase sync waits on.
func readCounter() uint64
