package lkmm

import (
	"github.com/litmus-dev/litmus/litmus"
)

// This file gives each row kind of the primitive table (litmus.Primitive)
// its LKMM events, following linux-kernel.def and herd's representation
// (tools/memory-model/Documentation/herd-representation.txt):
//
//	READ_ONCE            R[ONCE]            smp_load_acquire  R[ACQUIRE]
//	WRITE_ONCE           W[ONCE]            smp_store_release W[RELEASE]
//	smp_store_mb         W[ONCE] ->po F[MB]
//	atomic_add           R*[NORETURN] ->rmw W*[NORETURN]
//	atomic_add_return    R*[MB] ->rmw W*[MB] (and _relaxed ONCE, ...)
//	cmpxchg, failing     R*[MB] alone (a FailedRMW: no ordering)
//	spin_lock            LKR ->po LKW       spin_unlock UL
//	spin_trylock         LKR ->po LKW, or LF when it fails
//	spin_is_locked       RL (true) or RU (false)
//	srcu_read_lock       R[srcu-lock]       srcu_read_unlock W[srcu-unlock]
//	synchronize_srcu     SRCU[sync-srcu]
//
// Primitives herd lacks (bitops, refcount_t) take the orderings of their
// table rows (atomic_bitops.txt, refcount-vs-atomic.rst); a conditional
// ordering (refcount_dec_and_test: RELEASE, plus ACQUIRE when the count
// reaches zero) is chosen per execution from the value read, as herd does
// for a cmpxchg that succeeds or fails.

// orderTags returns the annotation of an access with ordering o.
func orderTags(o litmus.Order) tag {
	var t tag
	if o&litmus.OrdAcquire != 0 {
		t |= tAcquire
	}
	if o&litmus.OrdRelease != 0 {
		t |= tRelease
	}
	if o&litmus.OrdMb != 0 {
		t |= tMb
	}
	if t == 0 {
		t = tOnce
	}
	return t
}

// Values a spinlock location holds: herd's lock events read and write
// these, so that final states and rf by value stay meaningful.
var (
	unlocked = intVal(0)
	locked   = intVal(1)
)

func (in *interp) call(c *litmus.CallExpr) (Val, taint) {
	pr, ok := litmus.Lookup(c.Fun.Name)
	if !ok {
		in.fail(c.Pos(), "unknown primitive %s", c.Fun.Name)
		return Val{}, nil
	}
	if len(c.Args) != len(pr.Args) {
		in.fail(c.Pos(), "%s takes %d arguments, found %d", pr.Name, len(pr.Args), len(c.Args))
		return Val{}, nil
	}
	// Evaluate the operands left to right.
	loc := -1
	var addr taint
	vals := make([]Val, len(c.Args))
	taints := make([]taint, len(c.Args))
	for i, a := range pr.Args {
		switch a {
		case litmus.ArgPtr:
			l, t, ok := in.pointer(c.Args[i])
			if !ok {
				return Val{}, nil
			}
			if i == pr.Loc {
				loc, addr = l, t
			}
			vals[i] = addrVal(l)
		case litmus.ArgLval:
			l, t, ok := in.lvalue(c.Args[i])
			if !ok {
				return Val{}, nil
			}
			if i == pr.Loc {
				loc, addr = l, t
			}
			vals[i] = addrVal(l)
		case litmus.ArgVal:
			vals[i], taints[i] = in.expr(c.Args[i])
		case litmus.ArgBit:
			v, t := in.expr(c.Args[i])
			if v.isAddr() {
				in.dead = true
				return Val{}, nil
			}
			if v.N < 0 || v.N > 62 {
				in.fail(c.Args[i].Pos(), "bit number %d out of range 0..62", v.N)
				return Val{}, nil
			}
			vals[i], taints[i] = intVal(1<<uint(v.N)), t
		}
		if in.stopped() {
			return Val{}, nil
		}
	}
	// operand returns the k-th value operand and its dependencies: the
	// ArgVal and ArgBit arguments, then the row's implicit operands.
	operand := func(k int) (Val, taint) {
		for i, a := range pr.Args {
			if a == litmus.ArgVal || a == litmus.ArgBit {
				if k == 0 {
					return vals[i], taints[i]
				}
				k--
			}
		}
		if k < len(pr.Imm) {
			return intVal(pr.Imm[k]), nil
		}
		return intVal(1), nil // inc, dec
	}
	pos := c.Pos()
	switch pr.Kind {
	case litmus.KNop:
		return intVal(0), nil
	case litmus.KFence:
		f := fenceNames[pr.Fence]
		t := tag(0)
		if f == fMb {
			t = tMb
		}
		in.emit(event{kind: evF, rmwR: -1, loc: -1, fence: f, tags: t, pos: pos, prim: pr.Name})
		return intVal(0), nil
	case litmus.KLoad:
		v, i := in.read(loc, orderTags(pr.Order), addr, pos, pr.Name)
		if i < 0 {
			return Val{}, nil
		}
		if pr.Ret == litmus.RetBit {
			bit, _ := operand(0)
			return boolVal(v.N&bit.N != 0), taint{i}
		}
		return v, taint{i}
	case litmus.KStore:
		v, t := operand(0)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, tags: orderTags(pr.Order), addr: addr, data: t, pos: pos, prim: pr.Name})
		if pr.Fence != "" {
			in.emit(event{kind: evF, rmwR: -1, loc: -1, fence: fenceNames[pr.Fence], tags: tMb, pos: pos, prim: pr.Name})
		}
		return intVal(0), nil
	case litmus.KRMW:
		return in.rmw(pr, loc, addr, operand, pos)
	case litmus.KLock:
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tLKR, addr: addr, pos: pos, prim: pr.Name})
		in.emit(event{kind: evW, rmwR: r, loc: loc, val: locked, tags: tLKW, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil
	case litmus.KUnlock:
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: unlocked, tags: tUL, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil
	case litmus.KTryLock:
		if in.choose(2) == 0 {
			r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tLKR, addr: addr, pos: pos, prim: pr.Name})
			in.emit(event{kind: evW, rmwR: r, loc: loc, val: locked, tags: tLKW, addr: addr, pos: pos, prim: pr.Name})
			return intVal(1), taint{r}
		}
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: locked, tags: tLF, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), taint{r}
	case litmus.KIsLocked:
		if in.choose(2) == 0 {
			r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: locked, tags: tRL, addr: addr, pos: pos, prim: pr.Name})
			return intVal(1), taint{r}
		}
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tRU, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), taint{r}
	case litmus.KSRCULock:
		v, i := in.read(loc, tSrcuLock, addr, pos, pr.Name)
		if i < 0 {
			return Val{}, nil
		}
		return v, taint{i}
	case litmus.KSRCUUnlock:
		v, t := operand(0)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, tags: tSrcuUnlock, addr: addr, data: t, pos: pos, prim: pr.Name})
		return intVal(0), nil
	case litmus.KSyncSRCU:
		in.emit(event{kind: evSync, rmwR: -1, loc: loc, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil
	}
	in.fail(pos, "primitive %s is not supported by the LKMM engine", pr.Name)
	return Val{}, nil
}

// rmw emits a read-modify-write: R*, then W* unless it fails.
func (in *interp) rmw(pr *litmus.Primitive, loc int, addr taint, operand func(int) (Val, taint), pos litmus.Pos) (Val, taint) {
	v, vt := operand(0)
	if pr.NonAtomic {
		// __set_bit and friends: a plain read, then a plain write of a
		// value computed from it.
		old, r := in.read(loc, 0, addr, pos, pr.Name)
		if r < 0 {
			return Val{}, nil
		}
		nv := rmwApply(pr.Op, old, v)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: nv, addr: addr, data: vt.merge(taint{r}), pos: pos, prim: pr.Name})
		return intVal(0), nil
	}
	d := in.dom[loc]
	c := in.choose(len(d))
	if c < 0 {
		return Val{}, nil
	}
	old := d[c]
	writes := true
	var nv Val
	switch pr.Op {
	case litmus.RMWCmpxchg:
		nv2, nt := operand(1)
		writes = old == v
		nv, vt = nv2, nt
	case litmus.RMWAddUnless:
		u, ut := operand(1)
		writes = old != u
		if !old.isAddr() && !v.isAddr() {
			nv = intVal(old.N + v.N)
		}
		vt = vt.merge(ut)
	default:
		if (old.isAddr() || v.isAddr()) && pr.Op != litmus.RMWXchg {
			in.dead = true // arithmetic on an address, as in binop
			return Val{}, nil
		}
		nv = rmwApply(pr.Op, old, v)
	}
	success := true
	switch pr.Success {
	case litmus.SuccCmpEqual, litmus.SuccNotEqual:
		success = writes
	case litmus.SuccNewZero:
		success = nv.N == 0 && !nv.isAddr()
	case litmus.SuccOldBitClear:
		success = old.N&v.N == 0
	case litmus.SuccOldBitSet:
		success = old.N&v.N != 0
	}
	var tags tag
	switch {
	case pr.Ret == litmus.RetNone && pr.Order == litmus.OrdOnce && pr.Success == litmus.SuccAlways:
		tags = tNoreturn
	case success:
		tags = orderTags(pr.Order)
	default:
		tags = orderTags(pr.FailOrder)
	}
	r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: old, tags: tags | tRMW, addr: addr, pos: pos, prim: pr.Name})
	if writes {
		// The value an arithmetic RMW writes is computed from the
		// value it reads: herd's atomic_op and add_unless give the
		// write a data dependency on the read (iico_data from the R*
		// to the W*); xchg and cmpxchg write their operand.
		data := vt
		if pr.Op != litmus.RMWXchg && pr.Op != litmus.RMWCmpxchg {
			data = data.merge(taint{r})
		}
		in.emit(event{kind: evW, rmwR: r, loc: loc, val: nv, tags: tags | tRMW, addr: addr, data: data, pos: pos, prim: pr.Name})
	}
	rt := taint{r}
	switch pr.Ret {
	case litmus.RetOld:
		return old, rt
	case litmus.RetNew:
		return nv, rt
	case litmus.RetNewIsZero:
		return boolVal(nv.N == 0 && !nv.isAddr()), rt
	case litmus.RetNewIsNeg:
		return boolVal(nv.N < 0), rt
	case litmus.RetOldBit:
		return boolVal(old.N&v.N != 0), rt
	case litmus.RetSuccess:
		return boolVal(writes), rt
	}
	return intVal(0), nil
}

func rmwApply(op litmus.RMWOp, old, v Val) Val {
	switch op {
	case litmus.RMWAdd:
		return intVal(old.N + v.N)
	case litmus.RMWSub:
		return intVal(old.N - v.N)
	case litmus.RMWAnd:
		return intVal(old.N & v.N)
	case litmus.RMWOr:
		return intVal(old.N | v.N)
	case litmus.RMWXor:
		return intVal(old.N ^ v.N)
	case litmus.RMWAndNot:
		return intVal(old.N &^ v.N)
	case litmus.RMWXchg:
		return v
	}
	return old
}
