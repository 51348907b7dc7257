package axiom

import (
	"math/bits"

	"github.com/litmus-dev/litmus/litmus"
)

// Kind is what an event is.
type Kind uint8

// The kinds of event.
const (
	KindR     Kind = iota + 1 // a memory read
	KindW                     // a memory write (the initial writes too)
	KindF                     // a fence or another mark with no access (its tags say which)
	KindOther                 // an event with a location but no access (LKMM's synchronize_srcu)
	KindB                     // a branch (herd's B set): a conditional branch, for ctrl
)

var kindText = [...]string{"", "R", "W", "F", "other", "B"}

func (k Kind) String() string { return kindText[k] }

// Tags is a set of tags of one event: bit i stands for the program's
// Vocab[i]. A tag is the name of an event set a model reads ("ONCE",
// "Rcu-lock", "A", "DMB.ISH", "X"), so at most 64 distinct tags occur in
// one program.
type Tags uint64

// Has reports whether t contains tag i.
func (t Tags) Has(i int) bool { return t&(1<<uint(i)) != 0 }

// Each calls f for each tag index in t, in increasing order.
func (t Tags) Each(f func(int)) {
	for t != 0 {
		i := bits.TrailingZeros64(uint64(t))
		f(i)
		t &= t - 1
	}
}

// Event is one event of a thread's path (thread-local numbering of the
// reads its dependencies name) or of an execution.
type Event struct {
	Thread int // the thread's index in Program.Threads, -1 for an initial write
	Kind   Kind
	Tags   Tags
	Loc    int // location index, -1 when none
	Val    Val // the value read or written
	// RMW is, for the write of a read-modify-write pair, the index of its
	// read in the same path; -1 otherwise.
	RMW int
	// Instr numbers the instruction (or C statement) that made the event
	// in its thread: events of one instruction share it (herd's
	// same-instr, and amo = rmw & same-instr).
	Instr int
	// Par lists the earlier events of the path that the event is not
	// po-after (indices in the same path): in a C test, those of the
	// other operand of an operator of the same statement, which herd
	// evaluates in parallel.
	Par []int
	// Addr, Data and Ctrl are the reads (indices in the same path) that
	// the event's address, written value, and the branches before it
	// depend on, sorted.
	Addr, Data, Ctrl []int
	// Pick holds the AArch64 model's "pick" dependencies of the event
	// (through conditional selects and comparisons: herd's iico_ctrl),
	// nil when the semantics has none.
	Pick *PickDeps
	// Access numbers, within the path, the single-copy-atomic access the
	// event belongs to (0 when it is its own): in a mixed-size test an
	// access of several granules is several events of one access, of
	// AccessSize bytes.
	Access, AccessSize int
	// Order lists the events of the same instruction that come before
	// this one in herd's iico_order (the read of a SWP before its write).
	Order []int
	Pos   litmus.Pos
	// Text says which construct made the event, for explanations:
	// "r0 = READ_ONCE(*x)", "LDAR W0,[X1]".
	Text string
}

// PickDeps are the reads an event depends on through herd's pick
// relations (aarch64deps.cat): Addr, Data and Ctrl as pick-addr-dep,
// pick-data-dep and pick-ctrl-dep, and Dep as pick-dep.
type PickDeps struct {
	Addr, Data, Ctrl, Dep []int
}

// IsMem reports whether e accesses memory.
func (e *Event) IsMem() bool { return e.Kind == KindR || e.Kind == KindW }

// Trace is one path of one thread: its events in program order and the
// final values of its registers.
type Trace struct {
	Events []Event
	Regs   map[string]Val
	// Flow, when not nil, says how the path's values depend on its
	// reads, for herd's treatment of values that only a cycle of reads
	// and writes justifies (see Execution.ThinAir). A path without it
	// writes only values that no read can leave undetermined.
	Flow *Flow

	shape  int   // the path's structure, numbered per thread (see combiner.shapes)
	writes Set   // (location, value) pairs it writes, numbered by the search
	needs  []int // pairs its reads need from a write other than the initial one
}

// Taint is a sorted set of read indices a value depends on.
type Taint []int

// Merge returns the union of t and u.
func (t Taint) Merge(u Taint) Taint {
	if len(u) == 0 {
		return t
	}
	if len(t) == 0 {
		return u
	}
	out := make(Taint, 0, len(t)+len(u))
	i, j := 0, 0
	for i < len(t) || j < len(u) {
		switch {
		case j >= len(u) || (i < len(t) && t[i] < u[j]):
			out = append(out, t[i])
			i++
		case i >= len(t) || u[j] < t[i]:
			out = append(out, u[j])
			j++
		default:
			out = append(out, t[i])
			i++
			j++
		}
	}
	return out
}
