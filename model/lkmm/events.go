package lkmm

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// Val is a value of the C dialect (axiom.Val): an integer, or the address
// of a shared location (herd's symbolic addresses: "int *y = &x" makes y
// hold x).
type Val = axiom.Val

func intVal(n int64) Val  { return Val{N: n} }
func addrVal(loc int) Val { return Val{Sym: int32(loc + 1)} }

// top is the value of a read whose value is not chosen: the value domains
// run each thread with reads that return top as well as their domain's
// values, so that a branch on such a read takes both ways and a value
// written only on the way that no domain value leads to is found (see
// domains). Any operation on top gives top; no write of top enters a
// domain (axiom.Domains skips values below zero).
var top = Val{Sym: -1 << 31}

func isTop(v Val) bool { return v == top }

// evKind is what an event is.
type evKind uint8

const (
	evR    evKind = iota + 1 // a read (R, LKR, LF, RL, RU, Srcu-lock)
	evW                      // a write (W, IW, LKW, UL, Srcu-unlock)
	evF                      // a fence (F[...]), including rcu_read_lock and synchronize_rcu
	evSync                   // synchronize_srcu: no access, but a location
)

// tag is a set of herd annotations of an event (linux-kernel.bell's
// Accesses, plus the lock and SRCU classes of lock.cat and the bell).
type tag uint32

const (
	tOnce tag = 1 << iota
	tAcquire
	tRelease
	tMb
	tNoreturn
	tRMW // an event of an RMW instruction: herd's RMW set
	tLKR
	tLKW
	tUL
	tLF // a failed spin_trylock
	tRL // spin_is_locked returning true
	tRU // spin_is_locked returning false
	tSrcuLock
	tSrcuUnlock
	tIW // the initial write of a location

	tagBits = iota // number of tags
)

// fenceKind names the LKMM fence of an F event (linux-kernel.bell's
// Barriers).
type fenceKind uint8

const (
	fNone fenceKind = iota
	fMb
	fRmb
	fWmb
	fBarrier
	fRcuLock
	fRcuUnlock
	fSyncRcu
	fBeforeAtomic
	fAfterAtomic
	fAfterSpinlock
	fAfterUnlockLock
	fAfterSrcuReadUnlock
)

var fenceNames = map[string]fenceKind{
	"mb":                     fMb,
	"rmb":                    fRmb,
	"wmb":                    fWmb,
	"barrier":                fBarrier,
	"rcu-lock":               fRcuLock,
	"rcu-unlock":             fRcuUnlock,
	"sync-rcu":               fSyncRcu,
	"before-atomic":          fBeforeAtomic,
	"after-atomic":           fAfterAtomic,
	"after-spinlock":         fAfterSpinlock,
	"after-unlock-lock":      fAfterUnlockLock,
	"after-srcu-read-unlock": fAfterSrcuReadUnlock,
}

var fenceText = [...]string{"", "mb", "rmb", "wmb", "barrier", "rcu-lock", "rcu-unlock", "sync-rcu",
	"before-atomic", "after-atomic", "after-spinlock", "after-unlock-lock", "after-srcu-read-unlock"}

// event is one event of a thread's trace (thread-local numbering) or of
// an execution (global numbering, init writes first).
type event struct {
	thread int // -1 for an initial write
	kind   evKind
	tags   tag
	fence  fenceKind
	loc    int // -1 when none
	val    Val
	rmwR   int   // for the write of an RMW, the index of its read; else -1
	addr   []int // reads (same numbering) this access's address depends on
	data   []int // reads the written value depends on
	ctrl   []int // reads a branch before this event depends on
	vf     vflow // for a write: how its value depends on reads (see vflow)
	pos    litmus.Pos
	prim   string // the primitive or construct that made it, for witnesses
	// par lists the earlier events of the path that this one is not
	// po-after: those of the other operand of an operator of the same C
	// statement. herd's po for C is program order between statements
	// and, inside one, only the order its evaluation imposes (CSem's
	// ">>=", iico): the two operands of an operator are evaluated in
	// parallel (">>|"), so "READ_ONCE(*x) + READ_ONCE(*y)" has two reads
	// in no po order, while the read in "WRITE_ONCE(*y, READ_ONCE(*x))"
	// is po-before the write.
	par []int
}

// vflow says how a value depends on the reads of memory of its path, in
// herd's terms (see axiom.Flow): 0 when it depends on none (a constant,
// or a register holding one), k > 0 when it is the value of read k-1
// unchanged, vfOp when an operation computed it from reads.
type vflow int32

const vfOp vflow = -1

func copyOf(r int) vflow { return vflow(r + 1) }

// read returns the read a copy is of, or -1.
func (f vflow) read() int {
	if f > 0 {
		return int(f) - 1
	}
	return -1
}

// taint is a sorted set of read indices a value depends on.
type taint = axiom.Taint
