// Package limit bounds a search, the same way in every engine: a context,
// a time limit and a memory cap. The cap is on what the search holds, as
// its engine accounts it (Hold: visited sets, relation arenas, final
// states; Reserve before a large allocation), so that a test's answer
// never depends on what ran before it in the process or beside it on
// another core: the same test under the same cap stops at the same point
// alone, in a batch and for any number of jobs. Behind it, a process-wide
// backstop (SetProcessCap) reads the Go runtime's own figures, for memory
// no engine accounts; it is set well above what the searches account and
// is a safety net, not the cap.
//
// An engine creates one Budget per search and calls Err in its loops; the
// first limit hit makes Err return an *Exceeded, whose Reason is the
// Unknown reason a person reads ("timed out after 2s").
package limit

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMemory is the memory cap when none is given: 1.5 GiB.
const DefaultMemory = 1536 << 20

// heapEvery is how often Err reads the runtime's memory figures (a read
// costs under a microsecond); between two reads a search allocates at
// most a megabyte or so.
const heapEvery = 250 * time.Microsecond

// Exceeded is the error of a search stopped by a limit.
type Exceeded struct {
	// Reason says which limit, in words: "timed out after 2s",
	// "cancelled", "memory cap: the test holds 1.6 GiB, over its 1.5
	// GiB cap".
	Reason string
}

func (e *Exceeded) Error() string { return e.Reason }

// Budget is the limits of one search. Its methods are not safe for
// concurrent use; each search has its own, and the goroutines of a
// parallel search each a Fork, which share what the search holds.
type Budget struct {
	ctx      context.Context
	timeout  time.Duration
	deadline time.Time // zero: none
	memory   uint64
	held     *atomic.Uint64 // what the search holds, shared by its forks
	lastHeap time.Time
	err      *Exceeded
}

// processCap is the process-wide backstop (SetProcessCap); 0 is none.
var processCap atomic.Uint64

func init() { processCap.Store(4 * DefaultMemory) }

// SetProcessCap sets the process-wide backstop to n bytes (0: none): a
// search stops, Unknown, when the whole process holds more by the
// runtime's figures, whatever the search itself accounts. The command
// sets it to the per-test cap times the tests checked at a time, plus a
// margin; a library caller may set it to what its machine can give.
func SetProcessCap(n uint64) { processCap.Store(n) }

// New returns the budget of a search that stops when ctx is done, after
// timeout (0: no time limit beyond ctx), or when the process holds more
// than memory bytes (0: DefaultMemory).
func New(ctx context.Context, timeout time.Duration, memory uint64) *Budget {
	if ctx == nil {
		ctx = context.Background()
	}
	if memory == 0 {
		memory = DefaultMemory
	}
	b := &Budget{ctx: ctx, timeout: timeout, memory: memory, held: new(atomic.Uint64)}
	if timeout > 0 {
		b.deadline = time.Now().Add(timeout)
	}
	return b
}

// Fork returns a budget with b's limits (its context, deadline and memory
// cap) and a state of its own, for one goroutine of a parallel search:
// Budget is not safe for concurrent use. A limit hit on one fork does not
// stop the others by itself; each hits the same deadline or cap when it
// next polls.
func (b *Budget) Fork() *Budget {
	if b == nil {
		return nil
	}
	c := *b
	c.err, c.lastHeap = nil, time.Time{}
	return &c
}

// Memory returns the memory cap in bytes.
func (b *Budget) Memory() uint64 { return b.memory }

// Err returns nil while every limit holds, else the *Exceeded of the
// first limit hit; once it has returned an error it returns the same one.
// It reads the clock on every call and the memory figures at most every
// 250µs, so a loop may call it every few dozen steps.
func (b *Budget) Err() error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	now := time.Now()
	if !b.deadline.IsZero() && !now.Before(b.deadline) {
		return b.stop(fmt.Sprintf("timed out after %s", b.timeout))
	}
	if err := b.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return b.stop("timed out (the caller's deadline passed)")
		}
		return b.stop("cancelled before the search finished")
	}
	if held := b.held.Load(); held > b.memory {
		return b.stop(fmt.Sprintf("memory cap: the test holds %s, over its %s cap", Bytes(held), Bytes(b.memory)))
	}
	if pc := processCap.Load(); pc > 0 && now.Sub(b.lastHeap) >= heapEvery {
		b.lastHeap = now
		if held := ProcessHeld(); held > pc {
			return b.stop(fmt.Sprintf("memory cap: the process holds %s, over the %s backstop of all the tests it checks at a time", Bytes(held), Bytes(pc)))
		}
	}
	return nil
}

// Reserve returns an *Exceeded when allocating n more bytes would take
// the search past its memory cap (what stops then is described by what),
// and Err's result otherwise. An engine calls it before one large
// allocation, which no later Err could undo, and accounts the allocation
// with a Hold once made.
func (b *Budget) Reserve(n uint64, what string) error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	if held := b.held.Load(); held+n > b.memory {
		return b.stop(fmt.Sprintf("memory cap: %s would take %s more, and the test already holds %s of its %s cap", what, Bytes(n), Bytes(held), Bytes(b.memory)))
	}
	return b.Err()
}

// Held returns what the search holds, as its engine accounts it.
func (b *Budget) Held() uint64 {
	if b == nil {
		return 0
	}
	return b.held.Load()
}

// Hold is one structure's share of what a search holds: the engine sets
// it to the structure's size as it grows, and to 0 when it lets the
// structure go. The next Err sees the sum over the budget's Holds (and
// its forks').
type Hold struct {
	b *Budget
	n uint64
}

// Hold returns a new share of what b's search holds, at 0 bytes. A nil
// budget gives a Hold that accounts nothing.
func (b *Budget) Hold() *Hold { return &Hold{b: b} }

// Set makes the share n bytes.
func (h *Hold) Set(n uint64) {
	if h == nil || h.b == nil || n == h.n {
		return
	}
	if n > h.n {
		h.b.held.Add(n - h.n)
	} else {
		h.b.held.Add(^(h.n - n - 1))
	}
	h.n = n
}

// Bytes returns the share's size.
func (h *Hold) Bytes() uint64 {
	if h == nil {
		return 0
	}
	return h.n
}

func (b *Budget) stop(reason string) error {
	b.err = &Exceeded{Reason: reason}
	return b.err
}

// The runtime's figures: memory mapped for the process, less what it has
// returned to the operating system. This is the quantity the runtime's
// own soft memory limit (runtime/debug.SetMemoryLimit) bounds: the heap
// with its free and fragmented spans, stacks and the runtime's metadata.
var (
	sampleMu sync.Mutex
	samples  = []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
)

// ProcessHeld returns the bytes of memory the process holds, by the
// runtime's own figures.
func ProcessHeld() uint64 {
	sampleMu.Lock()
	defer sampleMu.Unlock()
	metrics.Read(samples)
	total, released := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	if released > total {
		return 0
	}
	return total - released
}

// Bytes prints a byte count in binary units: "512 KiB", "1536.0 MiB",
// "4191 GiB".
func Bytes(n uint64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GiB", (n+1<<29)>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
