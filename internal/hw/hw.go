// Package hw holds the small hardware helpers the invariants benchmarks share:
// a cycle counter, its calibration against the wall clock, a full memory
// fence with the cost of the kernel's x86 smp_mb(), CPU pinning and medians.
//
// It exists so that the four patch packages measure the same way; it knows
// nothing about sockets.
package hw

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// CacheLine is the coherence granule the layouts in this module pad to.
// Every x86-64 and arm64 server part the patches were measured on uses 64
// bytes.
const CacheLine = 64

// Mb is a full memory barrier, standing for the kernel's smp_mb().
//
// Go has no fence primitive; its sync/atomic operations are sequentially
// consistent, so Go code never needs a fence for correctness when every
// shared access is atomic. The benchmarks still need the kernel's cost:
// on x86 smp_mb() is "lock; addl $0,-4(%rsp)" (a locked add to a
// stack slot), and an atomic add of zero to a variable on this goroutine's
// stack compiles to exactly such a LOCK XADD. On arm64 it becomes an LDADDAL
// (or an LDAXR/STLXR loop), which is at least as strong as DMB ISH.
func Mb() {
	var x atomic.Uint32
	x.Add(0)
}

// Median returns the median of xs (the mean of the middle two for an even
// count) without reordering xs. It returns 0 for an empty slice.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Calibrate returns how many Ticks elapse per nanosecond, measured against
// time.Now over d (20 ms is plenty for a TSC; the result is the median of
// three windows so a preemption in one does not skew it).
func Calibrate(d time.Duration) float64 {
	var r [3]float64
	for i := range r {
		t0, c0 := time.Now(), Ticks()
		for time.Since(t0) < d {
		}
		t1, c1 := time.Now(), Ticks()
		r[i] = float64(c1-c0) / float64(t1.Sub(t0).Nanoseconds())
	}
	return Median(r[:])
}

// largeObject is the size above which the Go allocator gives an object a
// span of its own, page aligned and with no inline type header.
const largeObject = 32 << 10

// Lines returns a slice of n Ts whose first element starts a cache line.
// Small pointer-carrying objects get an 8-byte type header in front of them
// (Go 1.22's allocation headers), so a plain make may start 8 bytes into a
// line; Lines over-allocates to a large object, which is page aligned. With
// unsafe.Sizeof(T) a multiple of CacheLine every element is then aligned.
func Lines[T any](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	m := n
	if size > 0 && m*size <= largeObject {
		m = largeObject/size + 1
	}
	s := make([]T, m)[:n:n]
	if n > 0 && uintptr(unsafe.Pointer(&s[0]))%CacheLine != 0 {
		panic("hw.Lines: allocation not line aligned")
	}
	if n > 0 && m*size >= hugePage {
		// The kernel's objects live in its direct map, mapped with
		// huge pages: a benchmark that walks a large set of them must
		// not pay a TLB miss the kernel does not. Asked before the
		// memory is first written (a fresh span from the OS is not
		// touched by make), so the pages come huge where the system
		// allows (transparent_hugepage "madvise" or "always").
		adviseHuge(unsafe.Pointer(&s[0]), uintptr(m*size))
	}
	return s
}

// hugePage is the size from which Lines asks for huge pages.
const hugePage = 2 << 20

func defaultCPUs() []int {
	cpus := make([]int, runtime.NumCPU())
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}

// Pinned runs body on n goroutines, goroutine i locked to an OS thread
// pinned to CPU i (modulo the CPUs online, as Pin does). Each goroutine
// first runs setup(i), if setup is not nil: allocation, warming caches;
// the bodies are released together once every setup is done, so that the
// timed parts start at the same moment. Pinned returns when every body has
// returned, with the time the bodies were released.
func Pinned(n int, setup, body func(i int)) time.Time {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			unpin, _ := Pin(i)
			defer unpin()
			if setup != nil {
				setup(i)
			}
			ready.Done()
			<-start
			body(i)
		}()
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	done.Wait()
	return t0
}
