// Package harness runs a litmus test on this machine's cores, as herdtools'
// litmus7 and klitmus7 do, and reports the histogram of final states it saw.
// It never decides what a memory model allows: comparing the histogram with
// a model's states (model.Check) is the caller's separate step.
//
// # How a test runs
//
// Each thread of the test becomes machine code, generated here at run time
// (a JIT) into memory mapped executable: X86 and X86_64 tests instruction
// for instruction, C tests through the Linux kernel's own mapping of each
// primitive to instructions (model/kmap), on x86-64 or arm64. The generated
// function runs the whole per-thread loop over a batch of test instances:
// wait at the start barrier, initialise the test's registers, run the
// test's accesses back to back, store the observed registers, next
// instance. There is no Go code between the accesses, so no preemption
// point, no interpreter dispatch and no compiler reordering; a tiny
// assembly trampoline (call_amd64.s, call_arm64.s) enters it. A batch is
// bounded (Options.Size instances), so that Go's garbage collector, which
// cannot stop a thread inside the generated code, never waits long.
//
// Why a JIT rather than Go assembly built per test: the run needs no
// toolchain, takes milliseconds to prepare, and the code is exactly the
// bytes chosen here (the encoders are checked against objdump in tests).
//
// One goroutine per test thread is locked to its OS thread and pinned to a
// CPU (internal/hw). Instances are laid out in memory mapped outside the
// Go heap, each variable of the test at the same offset from its instance's
// base, with a configurable stride between instances.
package harness

import (
	"fmt"
	"strings"
	"time"
)

// Layout says where the variables of one instance live.
type Layout int

const (
	// Apart gives every variable its own array of instances, so that two
	// variables never share a cache line (litmus7's default).
	Apart Layout = iota
	// Together puts one instance's variables next to each other, so that
	// they share a cache line when they fit.
	Together
)

func (l Layout) String() string {
	if l == Together {
		return "together"
	}
	return "apart"
}

// Affinity says how test threads are placed on CPUs.
type Affinity int

const (
	// AffinityIncr pins thread i to the i-th CPU of Options.CPUs (modulo
	// their number).
	AffinityIncr Affinity = iota
	// AffinityRotate shifts that assignment by one CPU every batch, so
	// that each thread visits every CPU.
	AffinityRotate
	// AffinityRandom draws a fresh assignment every batch.
	AffinityRandom
	// AffinityNone does not pin (the threads are still locked to OS
	// threads).
	AffinityNone
)

var affinityNames = []string{"incr", "rotate", "random", "none"}

func (a Affinity) String() string {
	if int(a) < len(affinityNames) {
		return affinityNames[a]
	}
	return fmt.Sprintf("Affinity(%d)", int(a))
}

// ParseAffinity parses incr, rotate, random or none.
func ParseAffinity(s string) (Affinity, error) {
	for i, n := range affinityNames {
		if strings.EqualFold(s, n) {
			return Affinity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown affinity %q (want incr, rotate, random or none)", s)
}

// Sync is how the threads start an instance together.
type Sync int

const (
	// SyncSpin is litmus7's user-space barrier: every thread announces
	// the instance it reached and spins (PAUSE/YIELD, then sched_yield)
	// until all the others have reached it.
	SyncSpin Sync = iota
	// SyncTimebase has no communication: instance i starts when the
	// cycle counter (TSC, CNTVCT_EL0) passes start + i*Period.
	SyncTimebase
	// SyncNone lets every thread run its instances as fast as it can.
	SyncNone
)

var syncNames = []string{"spin", "timebase", "none"}

func (s Sync) String() string {
	if int(s) < len(syncNames) {
		return syncNames[s]
	}
	return fmt.Sprintf("Sync(%d)", int(s))
}

// ParseSync parses spin, timebase or none.
func ParseSync(s string) (Sync, error) {
	for i, n := range syncNames {
		if strings.EqualFold(s, n) {
			return Sync(i), nil
		}
	}
	return 0, fmt.Errorf("unknown sync mode %q (want spin, timebase or none)", s)
}

// Options are the stress parameters, printed with every result so that a
// surprising histogram can be reproduced.
type Options struct {
	// Iterations is how many instances run in all (litmus7's -s times
	// -r); default 1000000.
	Iterations int64
	// Size is how many instances one batch runs (litmus7's -s); each
	// thread runs a batch in one call of its generated code. Default 1000.
	Size int
	// Stride is the distance in bytes between two instances of one
	// variable; default 64, a cache line each.
	Stride int
	Layout Layout
	// Affinity and CPUs place the threads; CPUs defaults to every CPU
	// this process may run on.
	Affinity Affinity
	CPUs     []int
	Sync     Sync
	// Period is SyncTimebase's distance between instance starts, in
	// counter ticks; 0 picks about 250 ns.
	Period int64
	// MaxDelay is a random start delay, drawn per thread and instance
	// from [0, MaxDelay] iterations of an empty loop (about a cycle
	// each); 0 has none.
	MaxDelay int
	// Noise is the number of threads writing to memory of their own on
	// the CPUs the test threads do not use (at most one per spare CPU).
	Noise int
	// LoopBound is how many times a thread may take a loop's back edge
	// (a C loop, a spin_lock retry, a backward branch of an X86 test) in
	// one instance before the instance is abandoned and counted apart;
	// default 10000.
	LoopBound int
	// Atomics selects the arm64 atomics: "lse", "llsc", or "" for LSE
	// when the CPU has it. Ignored on x86-64.
	Atomics string
	// Seed seeds the random delays and affinities; 0 picks 1.
	Seed uint64
	// Timeout stops the run early; the result says how many instances
	// ran. 0 has none.
	Timeout time.Duration
}

// withDefaults returns o with zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Iterations <= 0 {
		o.Iterations = 1_000_000
	}
	if o.Size <= 0 {
		o.Size = 1000
	}
	if int64(o.Size) > o.Iterations {
		o.Size = int(o.Iterations)
	}
	if o.Stride <= 0 {
		o.Stride = 64
	}
	if o.LoopBound <= 0 {
		o.LoopBound = 10000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// String prints the options as command-line flags of litmus run.
func (o Options) String() string {
	cpus := make([]string, len(o.CPUs))
	for i, c := range o.CPUs {
		cpus[i] = fmt.Sprint(c)
	}
	s := fmt.Sprintf("--iterations %d --size %d --stride %d --layout %s --affinity %s --cpus %s --sync %s",
		o.Iterations, o.Size, o.Stride, o.Layout, o.Affinity, strings.Join(cpus, ","), o.Sync)
	if o.Sync == SyncTimebase {
		s += fmt.Sprintf(" --period %d", o.Period)
	}
	s += fmt.Sprintf(" --delay %d --noise %d --loop-bound %d --seed %d", o.MaxDelay, o.Noise, o.LoopBound, o.Seed)
	if o.Atomics != "" {
		s += " --atomics " + o.Atomics
	}
	return s
}

// Value is an observed value: an integer, or the address of one of the
// test's locations.
type Value struct {
	Int int64
	Sym string // the location's name when the value is its address
}

// String prints the value as herd does.
func (v Value) String() string {
	if v.Sym != "" {
		return v.Sym
	}
	return fmt.Sprint(v.Int)
}

// State is one final state seen, over the observed locations, and how
// many instances ended in it.
type State struct {
	Values []Value
	Count  int64
	// Holds reports whether the condition's proposition holds in the
	// state (litmus7's '*' mark).
	Holds bool
}

// Result is what a run saw.
type Result struct {
	Test string
	// Arch is the code generator: "x86-64", "arm64" (LSE atomics) or
	// "arm64-llsc".
	Arch    string
	Options Options // as run, defaults filled in
	// Locs names the observed locations, the columns of every State, as
	// model.Result.Locs names them.
	Locs   []string
	States []State // sorted as herd sorts states
	// Instances counts the instances in States; Abandoned those that hit
	// Options.LoopBound; Dropped those that accessed memory through a
	// register holding no address of the instance (the model drops such
	// executions too); Filtered those the test's filter rejected.
	Instances, Abandoned, Dropped, Filtered int64
	// Lost counts instances not run to the end because a thread gave up
	// waiting at the start barrier (a partner that did not come for a
	// long time: the machine is overloaded, or Go's runtime stopped the
	// partner's goroutine before it entered its code).
	Lost int64
	// Positive and Negative count the instances where the condition's
	// proposition holds and fails (litmus7's p_true and p_false).
	Positive, Negative int64
	Elapsed            time.Duration
	// Threads is the number of test threads; Placement the CPU of each
	// in the first batch (-1 unpinned); TimeShared reports that two test
	// threads share a CPU, because the test has more threads than
	// Options.CPUs.
	Threads    int
	Placement  []int
	TimeShared bool
	// Noise is the number of noise writers that ran.
	Noise int
	// Stopped says why the run ended before Options.Iterations ("timeout",
	// "canceled"), or "".
	Stopped string
}

// String prints the state as one herd state line: "0:r0=1; [x]=2;".
func (r *Result) StateString(s State) string {
	var b strings.Builder
	for i, v := range s.Values {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.Locs[i])
		b.WriteByte('=')
		b.WriteString(v.String())
		b.WriteByte(';')
	}
	return b.String()
}
