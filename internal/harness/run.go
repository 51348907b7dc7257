//go:build linux && (amd64 || arm64)

package harness

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
	"github.com/litmus-dev/litmus/model/kmap"
)

// Supported reports whether Run can run tests on this machine.
func Supported() bool { return true }

// HostArch returns the code generator Run uses here: "x86-64", or "arm64"
// (LSE atomics) or "arm64-llsc" as atomics asks ("lse", "llsc", "" for
// what the CPU has).
func HostArch(atomics string) (string, error) {
	switch runtime.GOARCH {
	case "amd64":
		return string(kmap.X86_64), nil
	case "arm64":
		switch atomics {
		case "lse":
			// Without them the first LSE instruction is SIGILL, which
			// kills the process.
			if !cpuHasLSE() {
				return "", fmt.Errorf("this CPU has no LSE atomics (ARMv8.1 FEAT_LSE): use --atomics llsc")
			}
			return string(kmap.ARM64), nil
		case "llsc":
			return string(kmap.ARM64LLSC), nil
		case "":
			if cpuHasLSE() {
				return string(kmap.ARM64), nil
			}
			return string(kmap.ARM64LLSC), nil
		}
		return "", fmt.Errorf("unknown atomics %q (want lse or llsc)", atomics)
	}
	return "", fmt.Errorf("litmus run needs amd64 or arm64, not %s", runtime.GOARCH)
}

// cpuHasLSE reports whether the CPU has the ARMv8.1 atomics: HWCAP_ATOMICS
// (bit 8 of AT_HWCAP) in the auxiliary vector.
func cpuHasLSE() bool {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return false
	}
	for i := 0; i+16 <= len(b); i += 16 {
		key := *(*uint64)(unsafe.Pointer(&b[i]))
		val := *(*uint64)(unsafe.Pointer(&b[i+8]))
		if key == 16 { // AT_HWCAP
			return val&(1<<8) != 0
		}
	}
	return false
}

// mapping is memory outside the Go heap.
type mapping []byte

func mmap(n int) (mapping, error) {
	n = (n + 4095) &^ 4095
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("mmap %d bytes: %w", n, err)
	}
	return b, nil
}

func (m mapping) addr() uintptr { return uintptr(unsafe.Pointer(&m[0])) }

func (m mapping) u64(off int64) *uint64 { return (*uint64)(unsafe.Pointer(&m[off])) }

// threadMem is one test thread's share of the control memory.
type threadMem struct {
	ctx     int64 // offsets in the control mapping
	bases   int64
	results int64
	delays  int64
}

// runMu makes Runs take turns: two at once would share the CPUs.
var runMu sync.Mutex

// Run runs t on this machine's cores and returns the histogram of the
// final states seen. A test the code generators cannot express is an
// error whose message starts "not supported by run:", with the position.
//
// Runs take turns. While one runs, Go's garbage collector is off
// (debug.SetGCPercent(-1)): the collector cannot stop a thread inside the
// generated code, and a collection that stopped one thread's goroutine
// just before it entered its code would leave the others waiting at the
// barrier. The run itself allocates only for new states.
func Run(ctx context.Context, t *litmus.Test, opt Options) (*Result, error) {
	runMu.Lock()
	defer runMu.Unlock()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	o := opt.withDefaults()
	allowed := hw.AllowedCPUs()
	if len(o.CPUs) == 0 {
		o.CPUs = allowed
	}
	for _, c := range o.CPUs {
		if !slices.Contains(allowed, c) {
			return nil, fmt.Errorf("CPU %d is not one this process may run on (%v)", c, allowed)
		}
	}
	arch, err := HostArch(o.Atomics)
	if err != nil {
		return nil, err
	}
	if o.Sync == SyncTimebase && o.Period <= 0 {
		o.Period = max(1, int64(250*ticksPerNs()))
	}
	p, err := compile(t, arch, o)
	if err != nil {
		return nil, err
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	r := &runner{p: p, o: o, res: &Result{Test: t.Name, Arch: arch, Options: o, Threads: len(p.threads)}}
	if err := r.setup(); err != nil {
		return nil, err
	}
	defer r.teardown()
	r.loop(ctx)
	return r.finish(), nil
}

// runner is one Run in progress.
type runner struct {
	p     *program
	o     Options
	res   *Result
	arena mapping
	ctl   mapping
	code  mapping
	tm    []threadMem
	entry []uintptr
	rng   *rand.Rand

	start []chan int // per thread: the CPU for the next batch (-1: leave it)
	done  chan int
	wg    sync.WaitGroup

	hist      map[string]*State
	key       []byte
	vals      []Value
	results   [][]uint64
	colOf     map[string]int
	stopNoise atomic.Bool
	noiseWG   sync.WaitGroup
	prevProcs int
}

func (r *runner) setup() error {
	p, o := r.p, r.o
	n := int64(o.Size)
	var err error
	if r.arena, err = mmap(int(p.layout.arena)); err != nil {
		return err
	}
	// Control memory: the barrier slots, then per thread its context,
	// bases, results and delays, each page aligned so that threads do not
	// share lines.
	page := func(x int64) int64 { return (x + 4095) &^ 4095 }
	off := page(int64(len(p.threads) * slotStride))
	for _, th := range p.threads {
		var m threadMem
		m.ctx, off = off, off+page(ctxSize)
		m.bases, off = off, off+page(8*n)
		m.results, off = off, off+page(8*n*int64(th.nres))
		m.delays, off = off, off+page(4*n)
		r.tm = append(r.tm, m)
	}
	if r.ctl, err = mmap(int(off)); err != nil {
		return err
	}
	total := 0
	for _, th := range p.threads {
		total += (len(th.code) + 63) &^ 63
	}
	if r.code, err = mmap(total); err != nil {
		return err
	}
	at := 0
	for _, th := range p.threads {
		copy(r.code[at:], th.code)
		r.entry = append(r.entry, r.code.addr()+uintptr(at))
		at += (len(th.code) + 63) &^ 63
	}
	if err := syscall.Mprotect(r.code, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		return fmt.Errorf("mprotect: %w", err)
	}
	flushICache(r.code)

	arenaLo := int64(r.arena.addr())
	arenaHi := arenaLo + p.layout.arena - 8 + 1
	for ti := range p.threads {
		c := r.tm[ti].ctx
		*r.ctl.u64(c + ctxBases) = uint64(r.ctl.addr()) + uint64(r.tm[ti].bases)
		*r.ctl.u64(c + ctxResults) = uint64(r.ctl.addr()) + uint64(r.tm[ti].results)
		*r.ctl.u64(c + ctxSlots) = uint64(r.ctl.addr())
		*r.ctl.u64(c + ctxMySlot) = uint64(r.ctl.addr()) + uint64(ti*slotStride)
		*r.ctl.u64(c + ctxTBPeriod) = uint64(o.Period)
		*r.ctl.u64(c + ctxBudget) = uint64(o.LoopBound)
		*r.ctl.u64(c + ctxArenaLo) = uint64(arenaLo)
		*r.ctl.u64(c + ctxArenaHi) = uint64(arenaHi)
		*r.ctl.u64(c + ctxSpin) = spinLimit
		*r.ctl.u64(c + ctxWaitMax) = uint64(float64(waitMax.Nanoseconds()) * ticksPerNs())
		if o.MaxDelay > 0 {
			*r.ctl.u64(c + ctxDelays) = uint64(r.ctl.addr()) + uint64(r.tm[ti].delays)
		}
	}
	r.rng = rand.New(rand.NewPCG(o.Seed, 0x6c69746d7573))
	r.hist = map[string]*State{}
	r.colOf = map[string]int{}
	for i, c := range p.cols {
		r.colOf[c.name] = i
	}

	// One locked goroutine per test thread, plus noise writers; the
	// generated code cannot be preempted, so every one of them needs a P
	// of its own while it runs.
	nt := len(p.threads)
	place := r.placement(0)
	r.res.Placement = place
	used := map[int]bool{}
	for _, c := range place {
		if c >= 0 {
			if used[c] {
				r.res.TimeShared = true
			}
			used[c] = true
		}
	}
	if nt > len(o.CPUs) {
		r.res.TimeShared = true
	}
	if r.res.TimeShared || o.Affinity == AffinityNone {
		for ti := range p.threads {
			*r.ctl.u64(r.tm[ti].ctx + ctxSpin) = spinLimitShared
		}
	}
	var spare []int
	for _, c := range o.CPUs {
		if !used[c] {
			spare = append(spare, c)
		}
	}
	noise := min(o.Noise, len(spare))
	if o.Affinity != AffinityIncr && o.Affinity != AffinityNone {
		noise = 0 // the threads move; there is no CPU to spare for good
	}
	r.res.Noise = noise
	r.prevProcs = runtime.GOMAXPROCS(0)
	if want := nt + noise + 1; want > r.prevProcs {
		runtime.GOMAXPROCS(want)
	}
	r.done = make(chan int, nt)
	for ti := range p.threads {
		ch := make(chan int, 1)
		r.start = append(r.start, ch)
		r.wg.Add(1)
		go r.thread(ti, place[ti], ch)
	}
	for i := range noise {
		r.noiseWG.Add(1)
		go r.noiseWriter(spare[i], i)
	}
	return nil
}

// placement returns the CPU of each thread for batch b.
func (r *runner) placement(b int) []int {
	nt, cpus := len(r.p.threads), r.o.CPUs
	place := make([]int, nt)
	switch r.o.Affinity {
	case AffinityNone:
		for i := range place {
			place[i] = -1
		}
	case AffinityRandom:
		perm := r.rng.Perm(len(cpus))
		for i := range place {
			place[i] = cpus[perm[i%len(cpus)]]
		}
	default:
		shift := 0
		if r.o.Affinity == AffinityRotate {
			shift = b
		}
		for i := range place {
			place[i] = cpus[(i+shift)%len(cpus)]
		}
	}
	return place
}

// thread is the goroutine of test thread ti: locked to its OS thread,
// pinned, it runs one batch per message.
//
// The goroutine never unlocks its thread: when it returns, Go terminates
// the thread rather than give other goroutines a thread pinned to one CPU.
func (r *runner) thread(ti, cpu int, start chan int) {
	defer r.wg.Done()
	runtime.LockOSThread()
	if cpu >= 0 {
		_ = hw.SetAffinity(cpu)
	}
	ctxAddr := r.ctl.addr() + uintptr(r.tm[ti].ctx)
	for c := range start {
		if c >= 0 && c != cpu {
			_ = hw.SetAffinity(c)
			cpu = c
		}
		callJIT(r.entry[ti], ctxAddr)
		r.done <- ti
	}
}

// noiseWriter stores to memory of its own on a spare CPU until the run
// ends: coherence and memory traffic beside the test's.
func (r *runner) noiseWriter(cpu, i int) {
	defer r.noiseWG.Done()
	runtime.LockOSThread() // never unlocked: see thread
	_ = hw.SetAffinity(cpu)
	buf := make([]atomic.Uint64, 1<<15) // 256 KB
	for k := uint64(0); !r.stopNoise.Load(); k++ {
		for j := 0; j < len(buf); j += 8 {
			buf[j].Store(k)
		}
	}
}

func (r *runner) teardown() {
	for _, ch := range r.start {
		close(ch)
	}
	r.wg.Wait()
	r.stopNoise.Store(true)
	r.noiseWG.Wait()
	if r.prevProcs > 0 {
		runtime.GOMAXPROCS(r.prevProcs)
	}
	for _, m := range []mapping{r.arena, r.ctl, r.code} {
		if m != nil {
			_ = syscall.Munmap(m)
		}
	}
}

// spinLimit is how many PAUSEs a thread waits at the barrier before it
// gives its CPU away with sched_yield; a thread that shares its CPU with
// another test thread yields almost at once, since spinning only delays
// the thread it waits for.
const (
	spinLimit       = 1024
	spinLimitShared = 4
)

// waitMax bounds how long a thread waits at the barrier for one instance
// before it gives up the rest of the batch: a partner that does not come
// for that long is descheduled on an overloaded machine, or its goroutine
// was stopped by Go's runtime before it entered its code.
const waitMax = time.Second

func (r *runner) loop(ctx context.Context) {
	p, o := r.p, r.o
	t0 := time.Now()
	var iter0 int64
	for b := 0; iter0 < o.Iterations; b++ {
		if err := ctx.Err(); err != nil {
			r.res.Stopped = map[bool]string{true: "timeout", false: "canceled"}[err == context.DeadlineExceeded]
			break
		}
		n := int(min(int64(o.Size), o.Iterations-iter0))
		r.initInstances(n)
		for ti := range p.threads {
			c := r.tm[ti].ctx
			*r.ctl.u64(c + ctxN) = uint64(n)
			*r.ctl.u64(c + ctxI) = 0
			*r.ctl.u64(c + ctxIter0) = uint64(iter0)
			if o.MaxDelay > 0 {
				d := unsafe.Slice((*uint32)(unsafe.Pointer(&r.ctl[r.tm[ti].delays])), n)
				for i := range d {
					d[i] = uint32(r.rng.IntN(o.MaxDelay + 1))
				}
			}
		}
		if o.Sync == SyncTimebase {
			// Start 100 µs from now: time for every thread to wake up.
			tb0 := readCounter() + uint64(100_000*ticksPerNs())
			for ti := range p.threads {
				*r.ctl.u64(r.tm[ti].ctx + ctxTB0) = tb0
			}
		}
		place := []int(nil)
		if b > 0 && (o.Affinity == AffinityRotate || o.Affinity == AffinityRandom) {
			place = r.placement(b)
		}
		for ti, ch := range r.start {
			c := -1
			if place != nil {
				c = place[ti]
			}
			ch <- c
		}
		for range p.threads {
			<-r.done
		}
		// An instance counts when every thread finished it; a thread
		// that gave up at the barrier leaves the rest of the batch.
		complete := n
		for ti := range p.threads {
			complete = min(complete, int(*r.ctl.u64(r.tm[ti].ctx + ctxI)))
		}
		r.collect(complete)
		r.res.Lost += int64(n - complete)
		iter0 += int64(n)
	}
	r.res.Elapsed = time.Since(t0)
}

// instanceBase returns the address of instance i.
func (r *runner) instanceBase(i int) uintptr {
	return r.arena.addr() + uintptr(int64(i)*r.p.layout.instStep)
}

// initInstances writes the initial values of instances 0..n-1 and their
// base addresses.
func (r *runner) initInstances(n int) {
	p := r.p
	for i := range n {
		base := r.instanceBase(i)
		boff := int64(base - r.arena.addr())
		for _, v := range p.vars {
			for e := range v.n {
				x := int64(0)
				if iv := v.init[e]; iv.sym != "" {
					w, we, _ := p.elemOf(iv.sym)
					x = int64(base) + w.off + int64(we*w.elem)
				} else {
					x = iv.v
				}
				writeMem(r.arena[boff+v.off+int64(e*v.elem):], v.elem, x)
			}
		}
		for ti := range p.threads {
			*r.ctl.u64(r.tm[ti].bases + int64(8*i)) = uint64(base)
		}
	}
}

func writeMem(b []byte, size int, x int64) {
	switch size {
	case 1:
		b[0] = byte(x)
	case 2:
		*(*uint16)(unsafe.Pointer(&b[0])) = uint16(x)
	case 4:
		*(*uint32)(unsafe.Pointer(&b[0])) = uint32(x)
	default:
		*(*uint64)(unsafe.Pointer(&b[0])) = uint64(x)
	}
}

// readMem reads size bytes, sign-extending to 64 bits.
func readMem(b []byte, size int) int64 {
	switch size {
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(*(*int16)(unsafe.Pointer(&b[0])))
	case 4:
		return int64(*(*int32)(unsafe.Pointer(&b[0])))
	}
	return *(*int64)(unsafe.Pointer(&b[0]))
}

// signExtend keeps the low width bytes of x (1, 2, 4 or 8), sign-extended,
// as model/ctype converts to a signed type of that width.
func signExtend(x int64, width int) int64 {
	return ctype.Kind{Bits: uint8(8 * width), Signed: true}.Convert(x)
}

// symbolize returns x as a Value: the name of the element of instance
// base it is the address of, or the integer.
func (r *runner) symbolize(x int64, base uintptr) Value {
	d := x - int64(base)
	if d < 0 || d >= r.p.layout.arena {
		return Value{Int: x}
	}
	for _, v := range r.p.vars {
		if d >= v.off && d < v.off+int64(v.size()) && (d-v.off)%int64(v.elem) == 0 {
			return Value{Sym: v.elemName(int((d - v.off) / int64(v.elem)))}
		}
	}
	return Value{Int: x}
}

// collect adds instances 0..n-1 to the histogram.
func (r *runner) collect(n int) {
	p := r.p
	if r.vals == nil {
		r.vals = make([]Value, len(p.cols))
	}
	if r.results == nil {
		r.results = make([][]uint64, len(p.threads))
	}
	results := r.results
	for ti, th := range p.threads {
		results[ti] = unsafe.Slice((*uint64)(unsafe.Pointer(&r.ctl[r.tm[ti].results])), n*th.nres)
	}
instances:
	for i := range n {
		for ti, th := range p.threads {
			switch results[ti][i*th.nres+th.nres-1] {
			case statusOK:
			case statusAbandoned:
				r.res.Abandoned++
				continue instances
			default:
				r.res.Dropped++
				continue instances
			}
		}
		base := r.instanceBase(i)
		boff := int64(base - r.arena.addr())
		for k, c := range p.cols {
			var x int64
			switch {
			case c.reg && c.slot < 0:
				if c.konst.sym != "" {
					r.vals[k] = Value{Sym: c.konst.sym}
					continue
				}
				r.vals[k] = Value{Int: c.konst.v}
				continue
			case c.reg:
				th := p.threads[c.thread]
				x = signExtend(int64(results[c.thread][i*th.nres+c.slot]), c.width)
			default:
				x = readMem(r.arena[boff+c.v.off+int64(c.elem*c.v.elem):], c.width)
			}
			r.vals[k] = r.symbolize(x, base)
		}
		r.key = r.key[:0]
		for _, v := range r.vals {
			r.key = binary.AppendVarint(r.key, v.Int)
			r.key = append(append(r.key, v.Sym...), 0)
		}
		s, ok := r.hist[string(r.key)]
		if !ok {
			s = &State{Values: slices.Clone(r.vals[:p.visible])}
			if p.test.Filter != nil && !p.evalProp(p.test.Filter, r.vals, r.colOf) {
				s.Count = -1 // filtered out
			} else if p.test.Cond != nil {
				s.Holds = p.evalProp(p.test.Cond.Prop, r.vals, r.colOf)
			}
			r.hist[string(r.key)] = s
		}
		if s.Count < 0 {
			r.res.Filtered++
			continue
		}
		s.Count++
		r.res.Instances++
		if s.Holds {
			r.res.Positive++
		} else {
			r.res.Negative++
		}
	}
}

// finish sorts the histogram into the result.
func (r *runner) finish() *Result {
	res := r.res
	for i := 0; i < r.p.visible; i++ {
		res.Locs = append(res.Locs, r.p.cols[i].name)
	}
	merged := map[string]*State{}
	for _, s := range r.hist {
		if s.Count <= 0 {
			continue
		}
		k := res.StateString(*s)
		if m, ok := merged[k]; ok {
			m.Count += s.Count // equal on the visible columns
			continue
		}
		c := *s
		merged[k] = &c
	}
	for _, s := range merged {
		res.States = append(res.States, *s)
	}
	sortStates(res.States)
	return res
}

// ticksPerNs is the cycle counter's rate, measured once.
var ticksPerNs = sync.OnceValue(func() float64 {
	if f := counterHz(); f > 0 {
		return float64(f) / 1e9
	}
	var best float64
	for range 3 {
		t0, c0 := time.Now(), readCounter()
		time.Sleep(5 * time.Millisecond)
		t1, c1 := time.Now(), readCounter()
		best = max(best, float64(c1-c0)/float64(t1.Sub(t0).Nanoseconds()))
	}
	return best
})
