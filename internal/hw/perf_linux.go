//go:build linux

package hw

import (
	"encoding/binary"
	"fmt"
	"syscall"
	"unsafe"
)

// A Counter is one hardware event counted for the calling OS thread
// (perf_event_open with pid 0, cpu -1), user space only. A goroutine that
// uses one must stay locked to its thread (Pinned's bodies are).
type Counter struct {
	fd   int
	Name string
}

// Events the benchmarks count.
const (
	// LLCReadMisses counts last-level-cache read misses
	// (PERF_COUNT_HW_CACHE_LL, OP_READ, RESULT_MISS).
	LLCReadMisses = iota
	// L1DReadMisses counts L1 data cache read misses.
	L1DReadMisses
)

// perf_event_attr, its first 64 bytes (PERF_ATTR_SIZE_VER0): type, size,
// config, sample_period, sample_type, read_format, the flag bits,
// wakeup_events, bp_type, config1.
type perfAttr struct {
	typ          uint32
	size         uint32
	config       uint64
	samplePeriod uint64
	sampleType   uint64
	readFormat   uint64
	flags        uint64
	wakeup       uint32
	bpType       uint32
	config1      uint64
}

const (
	perfTypeHWCache   = 3
	cacheL1D          = 0
	cacheLL           = 2
	cacheOpRead       = 0
	cacheResultMiss   = 1
	flagExcludeKernel = 1 << 5
	flagExcludeHV     = 1 << 6
)

// OpenCounter opens event for the calling thread. The error says why a
// machine has none: a virtual machine usually hides the PMU (the kernel
// then logs "PMU not available due to virtualization").
func OpenCounter(event int) (*Counter, error) {
	cache, name := uint64(cacheLL), "LLC read misses"
	if event == L1DReadMisses {
		cache, name = cacheL1D, "L1D read misses"
	}
	attr := perfAttr{
		typ:    perfTypeHWCache,
		size:   uint32(unsafe.Sizeof(perfAttr{})),
		config: cache | cacheOpRead<<8 | cacheResultMiss<<16,
		flags:  flagExcludeKernel | flagExcludeHV,
	}
	fd, _, errno := syscall.Syscall6(syscall.SYS_PERF_EVENT_OPEN, uintptr(unsafe.Pointer(&attr)), 0, ^uintptr(0), ^uintptr(0), 0, 0)
	if errno != 0 {
		return nil, fmt.Errorf("perf_event_open(%s): %v", name, errno)
	}
	return &Counter{fd: int(fd), Name: name}, nil
}

// Read returns the count so far.
func (c *Counter) Read() uint64 {
	var b [8]byte
	if n, err := syscall.Read(c.fd, b[:]); err != nil || n != 8 {
		return 0
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Close releases the counter.
func (c *Counter) Close() { syscall.Close(c.fd) }
