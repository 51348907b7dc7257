package nospace

import (
	"math/rand/v2"
	"runtime"
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

// Row is one line of the table.
type Row struct {
	Sockets int     // sockets per thread
	Before  float64 // median cycles per call above baseline, before the patch
	After   float64 // the same after the patch
	Base    float64 // median cycles per iteration of the baseline loop
}

// Config says how to run MeasureCheckSpace.
type Config struct {
	Sockets []int // sockets per thread, one row each
	Threads int   // threads, one per CPU; 0 means runtime.NumCPU()
	Runs    int   // runs per row; the row reports the median
	Calls   int   // calls per timed loop at least; whole passes are made
}

// socketSet is one thread's private sockets, visited in a fixed random
// order so that the hardware prefetchers cannot follow, with each tcp_sock
// pointing at a struct socket elsewhere in memory, as slab allocation
// leaves them.
type socketSet struct {
	tps   []TCPSock
	socks []Socket
	order []int32
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

// visit is the benchmark loop. Every mode does what the callers do anyway:
// write tcp_mstamp in line 0 and read sk_wmem_queued and sk_sndbuf in line
// 1. modeBefore adds the pre-patch fast path, which follows sk->sk_socket to
// struct socket's flags; modeAfter adds the patched one, which reads
// tcp_nospace in line 0. One loop serves all three modes (the switch is
// perfectly predicted) so that code layout does not differ between them.
// The result only keeps the loop alive.
func (s *socketSet) visit(passes, mode int) int64 {
	var sink int64
	for range passes {
		for _, i := range s.order {
			tp := &s.tps[i]
			tp.mstamp++
			sink += tp.wmemQueued.Load() + tp.sndbuf
			switch mode {
			case modeBefore:
				if tp.CheckSpaceBefore() {
					sink++
				}
			case modeAfter:
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

// timeLoop returns the ticks per socket visit of one visit(passes, mode).
func (s *socketSet) timeLoop(passes, mode int) float64 {
	n := len(s.order)
	t0 := hw.Ticks()
	r := s.visit(passes, mode)
	t := hw.Ticks() - t0
	sink.Add(r)
	return float64(t) / float64(passes*n)
}

// MeasureCheckSpace runs the patch's microbenchmark on this machine and
// returns one row per entry of cfg.Sockets, in hw.TickUnit.
func MeasureCheckSpace(cfg Config) []Row {
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	rows := make([]Row, 0, len(cfg.Sockets))
	for _, n := range cfg.Sockets {
		passes := max(1, (cfg.Calls+n-1)/n)
		var base, bef, aft [][]float64 // [thread][run]
		base = make([][]float64, threads)
		bef = make([][]float64, threads)
		aft = make([][]float64, threads)
		sets := make([]*socketSet, threads)
		hw.Pinned(threads, func(th int) {
			s := newSocketSet(n, uint64(th))
			sink.Add(s.visit(1, modeBaseline)) // fault in and warm
			sets[th] = s
		}, func(th int) {
			s := sets[th]
			for run := range cfg.Runs {
				var r [3]float64
				for k := range 3 {
					mode := (k + run) % 3 // rotate the order per run
					r[mode] = s.timeLoop(passes, mode)
				}
				base[th] = append(base[th], r[0])
				bef[th] = append(bef[th], r[1]-r[0])
				aft[th] = append(aft[th], r[2]-r[0])
			}
		})
		rows = append(rows, Row{
			Sockets: n,
			Base:    medianOfThreads(base),
			Before:  medianOfThreads(bef),
			After:   medianOfThreads(aft),
		})
	}
	return rows
}

// medianOfThreads is the mean over threads of each thread's median run.
func medianOfThreads(xs [][]float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += hw.Median(x)
	}
	return sum / float64(len(xs))
}
