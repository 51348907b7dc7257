//go:build !linux

package hw

import "errors"

// A Counter is one hardware event counted for the calling thread; only
// Linux has them here.
type Counter struct{ Name string }

// Events the benchmarks count.
const (
	LLCReadMisses = iota
	L1DReadMisses
)

// OpenCounter reports that this system has no counters for the benchmarks.
func OpenCounter(event int) (*Counter, error) {
	return nil, errors.New("hardware counters: only on Linux")
}

// Read returns 0.
func (c *Counter) Read() uint64 { return 0 }

// Close does nothing.
func (c *Counter) Close() {}
