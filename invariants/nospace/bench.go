package nospace

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/litmus-dev/litmus/internal/hw"
)

// The patch's microbenchmark: each thread calls tcp_check_space() in a loop
// over a private set of sockets, and the table gives cycles per call above
// a baseline loop that does the work the callers already did (touching the
// tcp_sock lines tcp_write_xmit() and tcp_clean_rtx_queue() touch) but not
// tcp_check_space() itself. The set size decides whether struct socket is
// still cached.

// SocketBytes is the footprint of one socket in the benchmark: the three
// tcp_sock lines and the struct socket line, which is what makes 256
// sockets 64 KB and 262144 sockets 64 MB, as in the patch's table.
const SocketBytes = int(unsafe.Sizeof(TCPSock{}) + unsafe.Sizeof(Socket{}))

// PatchTable is the patch's own table: sockets per thread, and cycles per
// call above baseline before and after, on an AMD EPYC 7B13 with 64 threads,
// median of 11 runs.
var PatchTable = []Row{
	{Sockets: 1, Before: 0.6, After: 0.7},
	{Sockets: 256, Before: 8.3, After: 3.9},
	{Sockets: 4096, Before: 22.4, After: 1.1},
	{Sockets: 262144, Before: 48.4, After: -0.8},
}

// Row is one line of the table. Before, After and Base are medians over
// the interleaved samples (see MeasureCheckSpace); the spreads and the
// test of after - before come with them.
type Row struct {
	Sockets int     // sockets per thread
	Before  float64 // median cycles per call above baseline, before the patch
	After   float64 // the same after the patch
	Base    float64 // median cycles per iteration of the baseline loop
	// BeforeSpread and AfterSpread are the spreads of the per-sample
	// differences to the baseline; Diff is after - before, sample by
	// sample (negative: the patch is cheaper).
	BeforeSpread, AfterSpread, Diff hw.Spread
	// Cheaper and Dearer count the samples where after was below and
	// above before, and P is the sign test's two-sided p-value.
	Cheaper, Dearer int
	P               float64
	// Misses are LLC read misses per call in the baseline, before and
	// after loops (NaN when the machine has no counter: MissesWhy).
	Misses    [3]float64
	MissesWhy string
}

// Config says how to run MeasureCheckSpace.
type Config struct {
	Sockets []int // sockets per thread, one row each
	Threads int   // threads, one per CPU; 0 means runtime.NumCPU()
	Runs    int   // runs per row; the samples of all runs are pooled
	Calls   int   // calls per mode and run at least; whole passes are made
	// NoMb leaves tcp_check_space()'s smp_mb() out of the loops, as the
	// first version of this benchmark did: without it the pre-patch
	// path's extra miss overlaps the other sockets' misses (seedbench
	// -no-mb shows it; docs/seeds/000-tcp-nospace.md has the figures).
	NoMb bool
}

// socketSet is one thread's private sockets, visited in a fixed random
// order so that the hardware prefetchers cannot follow, with each tcp_sock
// pointing at a struct socket elsewhere in memory, as slab allocation
// leaves them.
type socketSet struct {
	tps   []TCPSock
	socks []Socket
	order []int32
	noMb  bool // leave smp_mb() out (Config.NoMb)
}

func newSocketSet(n int, seed uint64) *socketSet {
	r := rand.New(rand.NewPCG(seed, 0x73657473))
	s := &socketSet{tps: hw.Lines[TCPSock](n), socks: hw.Lines[Socket](n), order: make([]int32, n)}
	sockOf := r.Perm(n)
	for i := range s.tps {
		initSock(&s.tps[i], &s.socks[sockOf[i]], After, 1<<20)
	}
	for i, j := range r.Perm(n) {
		s.order[i] = int32(j)
	}
	return s
}

// Modes of visit: the baseline loop, and the same loop with the pre- or
// post-patch tcp_check_space() fast path added.
const (
	modeBaseline = iota
	modeBefore
	modeAfter
)

// visit is the benchmark loop over the sockets order[from:to], reps
// times. Every mode does what the callers do anyway: write tcp_mstamp in
// line 0 and read sk_wmem_queued and sk_sndbuf in line 1. modeBefore and
// modeAfter add tcp_check_space() as the kernel has it, smp_mb() first
// (hw.Mb, the kernel's x86 "lock; addl") and then the pre-patch test,
// which follows sk->sk_socket to struct socket's flags, or the patched
// one, which reads tcp_nospace in line 0. The barrier is why the cold
// line costs: it waits for the line-0 store, so the loads after it start
// only then, and the pre-patch path's dependent miss is no longer hidden
// behind the next sockets' misses. One loop serves all three modes (the
// switch is perfectly predicted) so that code layout does not differ
// between them. The result only keeps the loop alive.
func (s *socketSet) visit(from, to, reps, mode int) int64 {
	var sink int64
	for range reps {
		for _, i := range s.order[from:to] {
			tp := &s.tps[i]
			tp.mstamp++
			sink += tp.wmemQueued.Load() + tp.sndbuf
			switch mode {
			case modeBefore:
				if !s.noMb {
					hw.Mb()
				}
				if tp.CheckSpaceBefore() {
					sink++
				}
			case modeAfter:
				if !s.noMb {
					hw.Mb()
				}
				if tp.CheckSpaceAfter() {
					sink++
				}
			}
		}
	}
	return sink
}

// sink keeps the loops' results observable so they are not removed.
var sink atomic.Int64

// blockSockets is how many sockets one timed sample visits: enough calls
// that the counter's resolution and the timing's own cost are small
// against them, few enough that the three modes' samples interleave
// closely in time.
const blockSockets = 256

// sample is one triple of timed blocks, one per mode, taken one after the
// other over three disjoint blocks of sockets (or the same small set).
type sample struct {
	ticks  [3]float64 // ticks per call, by mode
	misses [3]float64 // LLC read misses per call, by mode
}

// samples runs passes over s, cutting each into blocks of blockSockets
// sockets and timing each block in one mode, the modes taking turns
// (block k of pass p in mode (k+p) mod 3): the three modes see the same
// sockets, equally cold, at nearly the same time, so a load on the
// machine or a drift in clock speed moves them together. A set smaller
// than three blocks (cached anyway) is visited whole, reps times, per
// sample. ctr, when not nil, counts misses per block.
func (s *socketSet) samples(passes int, ctr *hw.Counter) []sample {
	n := len(s.order)
	block, reps := blockSockets, 1
	if n < 3*blockSockets {
		block, reps = n, max(1, blockSockets/n)
	}
	var out []sample
	for p := range passes {
		if n < 3*blockSockets {
			var sm sample
			for k := range 3 {
				mode := (k + p) % 3
				sm.ticks[mode], sm.misses[mode] = s.timeBlock(0, n, reps, mode, ctr)
			}
			out = append(out, sm)
			continue
		}
		for b := 0; b+3*block <= n; b += 3 * block {
			var sm sample
			for k := range 3 {
				mode := (k + p + b/(3*block)) % 3
				from := b + k*block
				sm.ticks[mode], sm.misses[mode] = s.timeBlock(from, from+block, 1, mode, ctr)
			}
			out = append(out, sm)
		}
	}
	return out
}

// timeBlock returns the ticks and LLC misses per call of one visit.
func (s *socketSet) timeBlock(from, to, reps, mode int, ctr *hw.Counter) (ticks, misses float64) {
	calls := float64((to - from) * reps)
	var m0 uint64
	if ctr != nil {
		m0 = ctr.Read()
	}
	t0 := hw.Ticks()
	r := s.visit(from, to, reps, mode)
	t := hw.Ticks() - t0
	sink.Add(r)
	if ctr != nil {
		misses = float64(ctr.Read()-m0) / calls
	}
	return float64(t) / calls, misses
}

// MeasureCheckSpace runs the patch's microbenchmark on this machine and
// returns one row per entry of cfg.Sockets, in hw.TickUnit: every thread
// takes interleaved samples (samples), and the row gives the medians and
// spreads over all threads' samples of all runs.
func MeasureCheckSpace(cfg Config) []Row {
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	rows := make([]Row, 0, len(cfg.Sockets))
	for _, n := range cfg.Sockets {
		// Each pass visits every socket once, a third of them in each
		// mode (or all of them reps times in each mode, small sets).
		perPass := n / 3
		if n < 3*blockSockets {
			perPass = n * max(1, blockSockets/n)
		}
		passes := max(1, (cfg.Calls+perPass-1)/perPass)
		got := make([][]sample, threads)
		sets := make([]*socketSet, threads)
		ctrs := make([]*hw.Counter, threads)
		var why string
		hw.Pinned(threads, func(th int) {
			s := newSocketSet(n, uint64(th))
			s.noMb = cfg.NoMb
			sink.Add(s.visit(0, n, 1, modeBaseline)) // fault in and warm
			sets[th] = s
			c, err := hw.OpenCounter(hw.LLCReadMisses)
			if err != nil && th == 0 {
				why = err.Error()
			}
			ctrs[th] = c
		}, func(th int) {
			for range max(1, cfg.Runs) {
				got[th] = append(got[th], sets[th].samples(passes, ctrs[th])...)
			}
		})
		rows = append(rows, summarize(n, slices.Concat(got...), ctrs[0] != nil, why))
		for _, c := range ctrs {
			if c != nil {
				c.Close()
			}
		}
	}
	return rows
}

// summarize turns the samples into a row.
func summarize(n int, ss []sample, counted bool, why string) Row {
	var base, bef, aft, diff []float64
	var miss [3][]float64
	for _, s := range ss {
		base = append(base, s.ticks[modeBaseline])
		bef = append(bef, s.ticks[modeBefore]-s.ticks[modeBaseline])
		aft = append(aft, s.ticks[modeAfter]-s.ticks[modeBaseline])
		diff = append(diff, s.ticks[modeAfter]-s.ticks[modeBefore])
		for m := range 3 {
			miss[m] = append(miss[m], s.misses[m])
		}
	}
	r := Row{Sockets: n, Base: hw.Median(base),
		BeforeSpread: hw.SpreadOf(bef), AfterSpread: hw.SpreadOf(aft), Diff: hw.SpreadOf(diff)}
	r.Before, r.After = r.BeforeSpread.Median, r.AfterSpread.Median
	// Fewer ticks after than before is "cheaper".
	r.Dearer, r.Cheaper, r.P = hw.SignTest(diff)
	for m := range 3 {
		r.Misses[m] = math.NaN()
		if counted {
			r.Misses[m] = hw.Median(miss[m])
		}
	}
	if !counted {
		r.MissesWhy = why
	}
	return r
}
