package litmus

import (
	"sort"
	"strconv"
)

// The primitive table: every kernel primitive the C dialect accepts is one
// row here. The parser uses it to check names and argument counts; the
// model layer reads the same rows to give each primitive its meaning under
// each memory model. Adding a primitive is adding a row.
//
// Sources: the kernel's tools/memory-model/linux-kernel.def (herd7's own
// table, mirrored row for row), Documentation/atomic_t.txt,
// Documentation/atomic_bitops.txt and
// Documentation/core-api/refcount-vs-atomic.rst for what herd lacks.

// Kind is what a primitive does to memory.
type Kind int

// Primitive kinds.
const (
	KLoad       Kind = iota + 1 // read one location
	KStore                      // write one location
	KRMW                        // atomic read-modify-write of one location
	KFence                      // a fence (the Fence field names which)
	KLock                       // spin_lock
	KUnlock                     // spin_unlock
	KTryLock                    // spin_trylock: returns 1 and takes the lock, or returns 0
	KIsLocked                   // spin_is_locked: returns 1 when held
	KSRCULock                   // srcu_read_lock: returns an index (LKMM: load{srcu-lock})
	KSRCUUnlock                 // srcu_read_unlock(s, idx) (LKMM: store{srcu-unlock})
	KSyncSRCU                   // synchronize_srcu(s)
	KNop                        // no memory effect (cpu_relax)
)

var kindNames = [...]string{"", "load", "store", "rmw", "fence", "lock", "unlock", "trylock", "islocked", "srcu-lock", "srcu-unlock", "sync-srcu", "nop"}

// String names the kind as docs/language.md does: "load", "rmw", ...
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// ArgKind says how the parser and the model read one argument.
type ArgKind int

// Argument kinds.
const (
	// ArgPtr is a pointer expression whose target is the accessed
	// location: the x of smp_load_acquire(x), atomic_inc(x), spin_lock(l).
	ArgPtr ArgKind = iota + 1
	// ArgLval is an lvalue that is the accessed location itself: the *x of
	// READ_ONCE(*x), WRITE_ONCE(*x, v), rcu_dereference(*p).
	ArgLval
	// ArgVal is a value operand.
	ArgVal
	// ArgBit is a bit number; the operand used on memory is 1<<nr
	// (bitops on a single word: the model treats nr < 64).
	ArgBit
)

// RMWOp is the operation of a read-modify-write; the new value is
// old Op operand.
type RMWOp int

// RMW operations.
const (
	RMWNone      RMWOp = iota
	RMWAdd             // old + v
	RMWSub             // old - v
	RMWAnd             // old & v
	RMWOr              // old | v (set_bit: v = 1<<nr)
	RMWXor             // old ^ v (change_bit)
	RMWAndNot          // old &^ v (clear_bit, atomic_andnot)
	RMWXchg            // v
	RMWCmpxchg         // if old == expected { new } else no write
	RMWAddUnless       // if old != u { old + v } else no write
)

// Ret is what a primitive returns.
type Ret int

// Return kinds.
const (
	RetNone      Ret = iota // a statement: returns nothing (LKMM's NORETURN RMWs)
	RetValue                // a load's value
	RetOld                  // the value before the RMW (fetch_*, xchg, cmpxchg)
	RetNew                  // the value after the RMW (*_return)
	RetNewIsZero            // 1 if the new value is 0 (*_and_test)
	RetNewIsNeg             // 1 if the new value is negative (add_negative)
	RetOldBit               // 1 if the operand's bit was set before (test_and_*_bit)
	RetBit                  // 1 if the bit is set in the loaded value (test_bit)
	RetSuccess              // 1 if the conditional RMW or trylock took effect
)

// Order is a set of ordering properties of an access; the zero Order is
// unordered (LKMM's ONCE).
type Order int

// Ordering bits.
const (
	OrdOnce    Order = 0
	OrdAcquire Order = 1 << iota // later accesses stay after it
	OrdRelease                   // earlier accesses stay before it
	OrdMb                        // fully ordered: a full barrier before and after
)

// Success says when a conditional primitive "succeeds"; Order applies on
// success and FailOrder otherwise.
type Success int

// Success conditions.
const (
	SuccAlways      Success = iota // unconditional: Order always applies
	SuccCmpEqual                   // cmpxchg: old == expected
	SuccNotEqual                   // add_unless: old != u
	SuccNewZero                    // *_and_test: new == 0
	SuccOldBitClear                // test_and_set_bit*: the bit was clear
	SuccOldBitSet                  // test_and_clear_bit: the bit was set
)

// Primitive is one row of the table.
type Primitive struct {
	Name string
	Args []ArgKind
	// Loc is the index in Args of the accessed location (ArgPtr or
	// ArgLval), or -1 for fences and nops.
	Loc  int
	Kind Kind
	Op   RMWOp // for KRMW
	Ret  Ret
	// Order applies always, or on success for conditional primitives;
	// FailOrder applies when a conditional primitive fails.
	Order     Order
	FailOrder Order
	Success   Success
	// Fence is the LKMM fence name for KFence rows ("mb", "rmb", "wmb",
	// "before-atomic", "after-atomic", "after-spinlock",
	// "after-unlock-lock", "after-srcu-read-unlock", "barrier", "rcu-lock",
	// "rcu-unlock", "sync-rcu"), or the fence that follows the access
	// (smp_store_mb: "mb").
	Fence string
	// NonAtomic marks __set_bit and friends: a plain load then a plain
	// store, not an atomic RMW.
	NonAtomic bool
	// Imm are implicit value operands, taken after the written ones: the
	// 1 and 0 of atomic_inc_not_zero(v), which is atomic_add_unless(v, 1, 0).
	Imm []int64
	// Source names the kernel document or file the row comes from.
	Source string
}

const (
	srcDef     = "tools/memory-model/linux-kernel.def"
	srcAtomicT = "Documentation/atomic_t.txt"
	srcBitops  = "Documentation/atomic_bitops.txt"
	srcRef     = "Documentation/core-api/refcount-vs-atomic.rst"
	srcMB      = "Documentation/memory-barriers.txt"
)

var (
	argsP   = []ArgKind{ArgPtr}
	argsL   = []ArgKind{ArgLval}
	argsLV  = []ArgKind{ArgLval, ArgVal}
	argsPV  = []ArgKind{ArgPtr, ArgVal}
	argsVP  = []ArgKind{ArgVal, ArgPtr}
	argsPVV = []ArgKind{ArgPtr, ArgVal, ArgVal}
	argsBP  = []ArgKind{ArgBit, ArgPtr}
)

var table = buildTable()

// Lookup returns the row for a primitive name.
func Lookup(name string) (*Primitive, bool) {
	p, ok := table[name]
	return p, ok
}

// Primitives returns every row, sorted by name.
func Primitives() []*Primitive {
	out := make([]*Primitive, 0, len(table))
	for _, p := range table {
		out = append(out, p)
	}
	sortPrimitives(out)
	return out
}

// tableBuilder collects the rows of the primitive table, one topic at a
// time.
type tableBuilder map[string]*Primitive

// add adds row p; a name added twice is a bug of the table.
func (t tableBuilder) add(p Primitive) {
	if _, dup := t[p.Name]; dup {
		panic("litmus: duplicate primitive " + p.Name)
	}
	q := p
	t[p.Name] = &q
}

// fence adds a fence of linux-kernel.def's fence set f.
func (t tableBuilder) fence(name, f string) {
	t.add(Primitive{Name: name, Loc: -1, Kind: KFence, Fence: f, Source: srcDef})
}

// rmwVariants are the orderings of the variants of a value-returning RMW.
var rmwVariants = []struct {
	suffix string
	order  Order
}{{"", OrdMb}, {"_relaxed", OrdOnce}, {"_acquire", OrdAcquire}, {"_release", OrdRelease}}

func buildTable() map[string]*Primitive {
	t := tableBuilder{}
	t.accessesAndFences()
	t.atomics()
	t.bitops()
	t.refcounts()
	t.others()
	// Fill in Loc for rows that left it to us: the first pointer or
	// lvalue argument.
	for _, p := range t {
		if p.Loc != 0 || p.Kind == KFence || p.Kind == KNop {
			continue
		}
		p.Loc = -1
		for i, a := range p.Args {
			if a == ArgPtr || a == ArgLval {
				p.Loc = i
				break
			}
		}
	}
	return t
}

// accessesAndFences adds the ONCE and acquire/release accesses, the
// fences, xchg and cmpxchg, the spinlocks and SRCU.
func (t tableBuilder) accessesAndFences() {
	// ONCE, acquire/release.
	t.add(Primitive{Name: "READ_ONCE", Args: argsL, Kind: KLoad, Ret: RetValue, Source: srcDef})
	t.add(Primitive{Name: "WRITE_ONCE", Args: argsLV, Kind: KStore, Source: srcDef})
	t.add(Primitive{Name: "smp_load_acquire", Args: argsP, Kind: KLoad, Ret: RetValue, Order: OrdAcquire, Source: srcDef})
	t.add(Primitive{Name: "smp_store_release", Args: argsPV, Kind: KStore, Order: OrdRelease, Source: srcDef})
	t.add(Primitive{Name: "rcu_assign_pointer", Args: argsLV, Kind: KStore, Order: OrdRelease, Source: srcDef})
	t.add(Primitive{Name: "rcu_dereference", Args: argsL, Kind: KLoad, Ret: RetValue, Source: srcDef})
	t.add(Primitive{Name: "smp_store_mb", Args: argsLV, Kind: KStore, Fence: "mb", Source: srcDef})

	// Fences.
	for _, f := range []struct{ name, fence string }{
		{"smp_mb", "mb"}, {"smp_rmb", "rmb"}, {"smp_wmb", "wmb"},
		{"smp_mb__before_atomic", "before-atomic"}, {"smp_mb__after_atomic", "after-atomic"},
		{"smp_mb__after_spinlock", "after-spinlock"}, {"smp_mb__after_unlock_lock", "after-unlock-lock"},
		{"smp_mb__after_srcu_read_unlock", "after-srcu-read-unlock"}, {"barrier", "barrier"},
		{"rcu_read_lock", "rcu-lock"}, {"rcu_read_unlock", "rcu-unlock"},
		{"synchronize_rcu", "sync-rcu"}, {"synchronize_rcu_expedited", "sync-rcu"},
	} {
		t.fence(f.name, f.fence)
	}

	// Exchange.
	for _, prefix := range []string{"", "atomic_"} {
		for _, v := range rmwVariants {
			t.add(Primitive{Name: prefix + "xchg" + v.suffix, Args: argsPV, Kind: KRMW, Op: RMWXchg, Ret: RetOld, Order: v.order, Source: srcDef})
			// A failed cmpxchg orders nothing (atomic_t.txt: "the failure
			// case ... is not ordered"; LKMM: a failed cmpxchg is a plain
			// ONCE read).
			t.add(Primitive{Name: prefix + "cmpxchg" + v.suffix, Args: argsPVV, Kind: KRMW, Op: RMWCmpxchg, Ret: RetOld,
				Order: v.order, FailOrder: OrdOnce, Success: SuccCmpEqual, Source: srcDef})
		}
	}

	// Spinlocks.
	t.add(Primitive{Name: "spin_lock", Args: argsP, Kind: KLock, Order: OrdAcquire, Source: srcDef})
	t.add(Primitive{Name: "spin_unlock", Args: argsP, Kind: KUnlock, Order: OrdRelease, Source: srcDef})
	t.add(Primitive{Name: "spin_trylock", Args: argsP, Kind: KTryLock, Ret: RetSuccess, Order: OrdAcquire, Success: SuccCmpEqual, Source: srcDef})
	t.add(Primitive{Name: "spin_is_locked", Args: argsP, Kind: KIsLocked, Ret: RetValue, Source: srcDef})

	// SRCU.
	t.add(Primitive{Name: "srcu_read_lock", Args: argsP, Kind: KSRCULock, Ret: RetValue, Source: srcDef})
	t.add(Primitive{Name: "srcu_read_unlock", Args: argsPV, Kind: KSRCUUnlock, Source: srcDef})
	t.add(Primitive{Name: "srcu_down_read", Args: argsP, Kind: KSRCULock, Ret: RetValue, Source: srcDef})
	t.add(Primitive{Name: "srcu_up_read", Args: argsPV, Kind: KSRCUUnlock, Source: srcDef})
	t.add(Primitive{Name: "synchronize_srcu", Args: argsP, Kind: KSyncSRCU, Source: srcDef})
	t.add(Primitive{Name: "synchronize_srcu_expedited", Args: argsP, Kind: KSyncSRCU, Source: srcDef})
}

// atomics adds atomic_t's and atomic_long_t's operations.
func (t tableBuilder) atomics() {
	// atomic_t and atomic_long_t (atomic_long_* are aliases, atomic_t.txt).
	for _, a := range []string{"atomic_", "atomic_long_"} {
		if a != "atomic_" {
			for _, v := range rmwVariants {
				t.add(Primitive{Name: a + "xchg" + v.suffix, Args: argsPV, Kind: KRMW, Op: RMWXchg, Ret: RetOld, Order: v.order, Source: srcAtomicT})
				t.add(Primitive{Name: a + "cmpxchg" + v.suffix, Args: argsPVV, Kind: KRMW, Op: RMWCmpxchg, Ret: RetOld,
					Order: v.order, FailOrder: OrdOnce, Success: SuccCmpEqual, Source: srcAtomicT})
			}
		}
		src := srcDef
		if a != "atomic_" {
			src = srcAtomicT
		}
		t.add(Primitive{Name: a + "read", Args: argsP, Kind: KLoad, Ret: RetValue, Source: src})
		t.add(Primitive{Name: a + "set", Args: argsPV, Kind: KStore, Source: src})
		t.add(Primitive{Name: a + "read_acquire", Args: argsP, Kind: KLoad, Ret: RetValue, Order: OrdAcquire, Source: src})
		t.add(Primitive{Name: a + "set_release", Args: argsPV, Kind: KStore, Order: OrdRelease, Source: src})

		ops := []struct {
			name string
			op   RMWOp
		}{{"add", RMWAdd}, {"sub", RMWSub}, {"and", RMWAnd}, {"or", RMWOr}, {"xor", RMWXor}, {"andnot", RMWAndNot}}
		for _, o := range ops {
			// Non-returning RMWs are unordered (atomic_t.txt).
			t.add(Primitive{Name: a + o.name, Args: argsVP, Kind: KRMW, Op: o.op, Source: src})
			for _, v := range rmwVariants {
				if o.op == RMWAdd || o.op == RMWSub {
					t.add(Primitive{Name: a + o.name + "_return" + v.suffix, Args: argsVP, Kind: KRMW, Op: o.op, Ret: RetNew, Order: v.order, Source: src})
				}
				t.add(Primitive{Name: a + "fetch_" + o.name + v.suffix, Args: argsVP, Kind: KRMW, Op: o.op, Ret: RetOld, Order: v.order, Source: src})
			}
		}
		for _, o := range []struct {
			name string
			op   RMWOp
		}{{"inc", RMWAdd}, {"dec", RMWSub}} {
			// The operand of inc and dec is 1 (linux-kernel.def:
			// __atomic_op{NORETURN}(X,+,1)).
			one := []int64{1}
			t.add(Primitive{Name: a + o.name, Args: argsP, Kind: KRMW, Op: o.op, Imm: one, Source: src})
			for _, v := range rmwVariants {
				t.add(Primitive{Name: a + o.name + "_return" + v.suffix, Args: argsP, Kind: KRMW, Op: o.op, Ret: RetNew, Order: v.order, Imm: one, Source: src})
				t.add(Primitive{Name: a + "fetch_" + o.name + v.suffix, Args: argsP, Kind: KRMW, Op: o.op, Ret: RetOld, Order: v.order, Imm: one, Source: src})
			}
			t.add(Primitive{Name: a + o.name + "_and_test", Args: argsP, Kind: KRMW, Op: o.op, Ret: RetNewIsZero, Order: OrdMb, Imm: one, Source: src})
		}
		t.add(Primitive{Name: a + "sub_and_test", Args: argsVP, Kind: KRMW, Op: RMWSub, Ret: RetNewIsZero, Order: OrdMb, Source: src})
		for _, v := range rmwVariants {
			t.add(Primitive{Name: a + "add_negative" + v.suffix, Args: argsVP, Kind: KRMW, Op: RMWAdd, Ret: RetNewIsNeg, Order: v.order, Source: src})
		}
		// atomic_add_unless(v, a, u): add a unless the value is u; fully
		// ordered when it adds, unordered when it does not (atomic_t.txt).
		t.add(Primitive{Name: a + "add_unless", Args: argsPVV, Kind: KRMW, Op: RMWAddUnless, Ret: RetSuccess,
			Order: OrdMb, FailOrder: OrdOnce, Success: SuccNotEqual, Source: src})
		// atomic_inc_not_zero(v) is atomic_add_unless(v, 1, 0)
		// (include/linux/atomic/atomic-instrumented.h), ordered likewise.
		t.add(Primitive{Name: a + "inc_not_zero", Args: argsP, Kind: KRMW, Op: RMWAddUnless, Ret: RetSuccess,
			Order: OrdMb, FailOrder: OrdOnce, Success: SuccNotEqual, Imm: []int64{1, 0}, Source: srcAtomicT})
	}
}

// bitops adds the bit operations.
func (t tableBuilder) bitops() {
	// Bit operations on one word (atomic_bitops.txt): non-returning RMWs
	// are unordered, value-returning ones fully ordered;
	// test_and_set_bit_lock is ACQUIRE on success, clear_bit_unlock
	// RELEASE. __set_bit and friends are not atomic.
	bit := func(name string, k Kind, op RMWOp, ret Ret, ord Order) {
		t.add(Primitive{Name: name, Args: argsBP, Loc: 1, Kind: k, Op: op, Ret: ret, Order: ord, Source: srcBitops})
	}
	bit("set_bit", KRMW, RMWOr, RetNone, OrdOnce)
	bit("clear_bit", KRMW, RMWAndNot, RetNone, OrdOnce)
	bit("change_bit", KRMW, RMWXor, RetNone, OrdOnce)
	bit("test_bit", KLoad, RMWNone, RetBit, OrdOnce)
	bit("test_bit_acquire", KLoad, RMWNone, RetBit, OrdAcquire)
	// "RMW operations that are conditional are unordered on FAILURE ...
	// In the case of test_and_{}_bit() operations, if the bit in memory
	// is unchanged by the operation then it is deemed to have failed"
	// (atomic_bitops.txt, ORDERING): test_and_set_bit on a set bit and
	// test_and_clear_bit on a clear bit order nothing.
	// test_and_change_bit always changes the bit, so it always succeeds.
	t.add(Primitive{Name: "test_and_set_bit", Args: argsBP, Loc: 1, Kind: KRMW, Op: RMWOr, Ret: RetOldBit,
		Order: OrdMb, FailOrder: OrdOnce, Success: SuccOldBitClear, Source: srcBitops})
	t.add(Primitive{Name: "test_and_clear_bit", Args: argsBP, Loc: 1, Kind: KRMW, Op: RMWAndNot, Ret: RetOldBit,
		Order: OrdMb, FailOrder: OrdOnce, Success: SuccOldBitSet, Source: srcBitops})
	bit("test_and_change_bit", KRMW, RMWXor, RetOldBit, OrdMb)
	t.add(Primitive{Name: "test_and_set_bit_lock", Args: argsBP, Loc: 1, Kind: KRMW, Op: RMWOr, Ret: RetOldBit,
		Order: OrdAcquire, FailOrder: OrdOnce, Success: SuccOldBitClear, Source: srcBitops})
	bit("clear_bit_unlock", KRMW, RMWAndNot, RetNone, OrdRelease)
	for _, n := range []struct {
		name string
		op   RMWOp
	}{{"__set_bit", RMWOr}, {"__clear_bit", RMWAndNot}, {"__change_bit", RMWXor}} {
		t.add(Primitive{Name: n.name, Args: argsBP, Loc: 1, Kind: KRMW, Op: n.op, NonAtomic: true, Source: srcBitops})
	}
}

// refcounts adds refcount_t's operations.
func (t tableBuilder) refcounts() {
	// refcount_t (refcount-vs-atomic.rst): set/read are plain ONCE
	// accesses; inc/add are unordered; dec and the *_and_test operations
	// give RELEASE ordering, plus ACQUIRE ordering when they reach zero.
	// They are not fully ordered like atomic_dec_and_test.
	ref := func(name string, args []ArgKind, loc int, k Kind, op RMWOp, ret Ret, ord, fail Order, s Success) {
		t.add(Primitive{Name: name, Args: args, Loc: loc, Kind: k, Op: op, Ret: ret, Order: ord, FailOrder: fail, Success: s, Source: srcRef})
	}
	ref("refcount_set", argsPV, 0, KStore, RMWNone, RetNone, OrdOnce, OrdOnce, SuccAlways)
	ref("refcount_read", argsP, 0, KLoad, RMWNone, RetValue, OrdOnce, OrdOnce, SuccAlways)
	ref("refcount_inc", argsP, 0, KRMW, RMWAdd, RetNone, OrdOnce, OrdOnce, SuccAlways)
	ref("refcount_add", argsVP, 1, KRMW, RMWAdd, RetNone, OrdOnce, OrdOnce, SuccAlways)
	// refcount_dec is unconditional (case 3: "fully unordered --> RELEASE
	// ordering"), so it has no failure ordering.
	ref("refcount_dec", argsP, 0, KRMW, RMWSub, RetNone, OrdRelease, OrdOnce, SuccAlways)
	ref("refcount_sub_and_test", argsVP, 1, KRMW, RMWSub, RetNewIsZero, OrdRelease|OrdAcquire, OrdRelease, SuccNewZero)
	ref("refcount_dec_and_test", argsP, 0, KRMW, RMWSub, RetNewIsZero, OrdRelease|OrdAcquire, OrdRelease, SuccNewZero)
	// refcount_inc_not_zero(r) and refcount_add_not_zero(i, r): add unless
	// the count is 0; "fully ordered --> control dependency on success for
	// stores", i.e. unordered RMWs (refcount-vs-atomic.rst, case 4).
	t.add(Primitive{Name: "refcount_inc_not_zero", Args: argsP, Kind: KRMW, Op: RMWAddUnless, Ret: RetSuccess,
		Success: SuccNotEqual, Imm: []int64{1, 0}, Source: srcRef})
	t.add(Primitive{Name: "refcount_add_not_zero", Args: argsVP, Loc: 1, Kind: KRMW, Op: RMWAddUnless, Ret: RetSuccess,
		Success: SuccNotEqual, Imm: []int64{0}, Source: srcRef})
}

// others adds cpu_relax and the primitives of older kernels.
func (t tableBuilder) others() {
	t.add(Primitive{Name: "cpu_relax", Loc: -1, Kind: KNop, Source: "arch/x86/include/asm/vdso/processor.h (a pause hint, no ordering)"})

	// Primitives of older kernels that older litmus tests still use.
	// lockless_dereference(p) was READ_ONCE(p) plus
	// smp_read_barrier_depends() and became READ_ONCE in v4.15, when
	// READ_ONCE itself started to order dependent accesses (Alpha's
	// barrier moved into it); smp_read_barrier_depends() was then a
	// no-op everywhere but Alpha and was removed in v5.9. The LKMM orders
	// address dependencies from marked loads, so under it
	// lockless_dereference is rcu_dereference and the barrier does
	// nothing (Documentation/memory-barriers.txt, "Data dependency
	// barriers (historical)").
	t.add(Primitive{Name: "lockless_dereference", Args: argsL, Kind: KLoad, Ret: RetValue, Source: srcMB + " (historical; now rcu_dereference)"})
	t.add(Primitive{Name: "smp_read_barrier_depends", Loc: -1, Kind: KNop, Source: srcMB + " (historical; a no-op under the LKMM)"})
}

func sortPrimitives(ps []*Primitive) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}
