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

// call runs a primitive and returns its value and the reads it depends
// on; in.nd is then its vflow.
func (in *interp) call(c *litmus.CallExpr) (Val, taint) {
	v, t, f := in.call1(c)
	in.nd = f
	return v, t
}

func (in *interp) call1(c *litmus.CallExpr) (Val, taint, vflow) {
	pr, ok := in.p.test.Primitive(c.Fun.Name)
	if !ok {
		in.fail(c.Pos(), "unknown primitive %s", c.Fun.Name)
		return Val{}, nil, 0
	}
	if len(c.Args) != len(pr.Args) {
		in.fail(c.Pos(), "%s takes %d arguments, found %d", pr.Name, len(pr.Args), len(c.Args))
		return Val{}, nil, 0
	}
	// Evaluate the operands left to right.
	loc := -1
	var addr taint
	vals := make([]Val, len(c.Args))
	taints := make([]taint, len(c.Args))
	flows := make([]vflow, len(c.Args))
	for i, a := range pr.Args {
		switch a {
		case litmus.ArgPtr:
			l, t, ok := in.pointer(c.Args[i])
			if !ok {
				return Val{}, nil, 0
			}
			if i == pr.Loc {
				loc, addr = l, t
			}
			vals[i] = addrVal(l)
		case litmus.ArgLval:
			l, t, ok := in.lvalue(c.Args[i])
			if !ok {
				return Val{}, nil, 0
			}
			if i == pr.Loc {
				loc, addr = l, t
			}
			vals[i] = addrVal(l)
		case litmus.ArgVal:
			vals[i], taints[i] = in.expr(c.Args[i])
			flows[i] = in.nd
		case litmus.ArgBit:
			v, t := in.expr(c.Args[i])
			if in.nd != 0 {
				in.needs(t, in.nd)
				flows[i] = vfOp
			}
			if v.IsAddr() || isTop(v) {
				in.dead = true
				return Val{}, nil, 0
			}
			if v.N < 0 || v.N > 62 {
				in.fail(c.Args[i].Pos(), "bit number %d out of range 0..62", v.N)
				return Val{}, nil, 0
			}
			vals[i], taints[i] = intVal(1<<uint(v.N)), t
		}
		if in.stopped() {
			return Val{}, nil, 0
		}
	}
	// operand returns the k-th value operand and its dependencies: the
	// ArgVal and ArgBit arguments, then the row's implicit operands.
	operand := func(k int) (Val, taint, vflow) {
		for i, a := range pr.Args {
			if a == litmus.ArgVal || a == litmus.ArgBit {
				if k == 0 {
					return vals[i], taints[i], flows[i]
				}
				k--
			}
		}
		if k < len(pr.Imm) {
			return intVal(pr.Imm[k]), nil, 0
		}
		return intVal(1), nil, 0 // inc, dec
	}
	pos := c.Pos()
	switch pr.Kind {
	case litmus.KNop:
		return intVal(0), nil, 0
	case litmus.KFence:
		f := fenceNames[pr.Fence]
		t := tag(0)
		if f == fMb {
			t = tMb
		}
		in.emit(event{kind: evF, rmwR: -1, loc: -1, fence: f, tags: t, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	case litmus.KLoad:
		v, i := in.read(loc, orderTags(pr.Order), addr, pos, pr.Name)
		if i < 0 {
			return Val{}, nil, 0
		}
		if pr.Ret == litmus.RetBit {
			in.newVar()
			bit, bt, bf := operand(0)
			in.needs(taint{i}, copyOf(i))
			in.needs(bt, bf)
			if isTop(v) || v.IsAddr() {
				return top, taint{i}, vfOp
			}
			return boolVal(v.N&bit.N != 0), taint{i}, vfOp
		}
		return v, taint{i}, copyOf(i)
	case litmus.KStore:
		v, t, f := operand(0)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, tags: orderTags(pr.Order), addr: addr, data: t, vf: f, pos: pos, prim: pr.Name})
		if pr.Fence != "" {
			in.emit(event{kind: evF, rmwR: -1, loc: -1, fence: fenceNames[pr.Fence], tags: tMb, pos: pos, prim: pr.Name})
		}
		return intVal(0), nil, 0
	case litmus.KRMW:
		return in.rmw(pr, loc, addr, operand, pos)
	case litmus.KLock:
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tLKR, addr: addr, pos: pos, prim: pr.Name})
		in.emit(event{kind: evW, rmwR: r, loc: loc, val: locked, tags: tLKW, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	case litmus.KUnlock:
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: unlocked, tags: tUL, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	case litmus.KTryLock:
		if in.choose(2) == 0 {
			r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tLKR, addr: addr, pos: pos, prim: pr.Name})
			in.emit(event{kind: evW, rmwR: r, loc: loc, val: locked, tags: tLKW, addr: addr, pos: pos, prim: pr.Name})
			return intVal(1), taint{r}, 0
		}
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: locked, tags: tLF, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), taint{r}, 0
	case litmus.KIsLocked:
		if in.choose(2) == 0 {
			r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: locked, tags: tRL, addr: addr, pos: pos, prim: pr.Name})
			return intVal(1), taint{r}, 0
		}
		r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: unlocked, tags: tRU, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), taint{r}, 0
	case litmus.KSRCULock:
		// herd's srcu_read_lock returns a constant of its own, not a
		// value read from memory (CSem's ExpSRCU).
		v, i := in.read(loc, tSrcuLock, addr, pos, pr.Name)
		if i < 0 {
			return Val{}, nil, 0
		}
		return v, taint{i}, 0
	case litmus.KSRCUUnlock:
		v, t, _ := operand(0)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, tags: tSrcuUnlock, addr: addr, data: t, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	case litmus.KSyncSRCU:
		in.emit(event{kind: evSync, rmwR: -1, loc: loc, addr: addr, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	}
	in.fail(pos, "primitive %s is not supported by the LKMM engine", pr.Name)
	return Val{}, nil, 0
}

// rmw emits a read-modify-write: R*, then W* unless it fails.
func (in *interp) rmw(pr *litmus.Primitive, loc int, addr taint, operand func(int) (Val, taint, vflow), pos litmus.Pos) (Val, taint, vflow) {
	v, vt, vf := operand(0)
	if pr.NonAtomic {
		// __set_bit and friends: a plain read, then a plain write of a
		// value computed from it.
		old, r := in.read(loc, 0, addr, pos, pr.Name)
		if r < 0 {
			return Val{}, nil, 0
		}
		nv := top
		if !isTop(old) && !isTop(v) {
			nv = rmwApply(pr.Op, old, v)
		}
		in.needs(taint{r}, copyOf(r))
		in.needs(vt, vf)
		in.emit(event{kind: evW, rmwR: -1, loc: loc, val: nv, addr: addr, data: vt.Merge(taint{r}), vf: vfOp, pos: pos, prim: pr.Name})
		return intVal(0), nil, 0
	}
	old, ok := in.pick(loc)
	if !ok {
		return Val{}, nil, 0
	}
	r := len(in.events) // the index of the read, emitted below
	// The value the RMW writes, with its vflow, and whether it writes.
	writes := true
	var nv Val
	var nf vflow
	switch pr.Op {
	case litmus.RMWCmpxchg:
		nv2, nt, f := operand(1)
		if isTop(old) || isTop(v) {
			writes = in.choose(2) == 0
		} else {
			writes = old == v
		}
		if writes && vf == 0 {
			// herd's cmpxchg that succeeds equates the value read with
			// the expected one: a constant determines it.
			in.fixed = append(in.fixed, r)
		} else {
			in.needs(taint{r}, copyOf(r))
			in.needs(vt, vf)
		}
		nv, vt, nf = nv2, nt, f
	case litmus.RMWAddUnless:
		u, ut, uf := operand(1)
		if isTop(old) || isTop(u) {
			writes = in.choose(2) == 0
		} else {
			writes = old != u
		}
		if !writes && uf == 0 {
			in.fixed = append(in.fixed, r) // herd's add_unless_no: old = u
		} else {
			in.needs(taint{r}, copyOf(r))
			in.needs(ut, uf)
		}
		in.needs(vt, vf)
		switch {
		case isTop(old) || isTop(v):
			nv = top
		case !old.IsAddr() && !v.IsAddr():
			nv = intVal(old.N + v.N)
		}
		nf = vfOp
		vt = vt.Merge(ut)
	case litmus.RMWXchg:
		nv, nf = v, vf
	default:
		if (old.IsAddr() || v.IsAddr()) && !isTop(old) && !isTop(v) {
			in.dead = true // arithmetic on an address, as in binop
			return Val{}, nil, 0
		}
		nv = top
		if !isTop(old) && !isTop(v) {
			nv = rmwApply(pr.Op, old, v)
		}
		in.needs(taint{r}, copyOf(r))
		in.needs(vt, vf)
		nf = vfOp
	}
	success := true
	switch pr.Success {
	case litmus.SuccCmpEqual, litmus.SuccNotEqual:
		success = writes
	case litmus.SuccNewZero, litmus.SuccOldBitClear, litmus.SuccOldBitSet:
		// A success that depends on the value: an equation on it.
		in.needs(taint{r}, copyOf(r))
		switch {
		case isTop(nv) || isTop(old):
			success = in.choose(2) == 0
		case pr.Success == litmus.SuccNewZero:
			success = nv.N == 0 && !nv.IsAddr()
		case pr.Success == litmus.SuccOldBitClear:
			success = old.N&v.N == 0
		default:
			success = old.N&v.N != 0
		}
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
	in.emit(event{kind: evR, rmwR: -1, loc: loc, val: old, tags: tags | tRMW, addr: addr, pos: pos, prim: pr.Name})
	in.noteVar(r, in.newVar())
	if pr.Op != litmus.RMWXchg && pr.Op != litmus.RMWCmpxchg {
		in.newVar() // the operation's result
	}
	if writes {
		// The value an arithmetic RMW writes is computed from the
		// value it reads: herd's atomic_op and add_unless give the
		// write a data dependency on the read (iico_data from the R*
		// to the W*); xchg and cmpxchg write their operand.
		data := vt
		if pr.Op != litmus.RMWXchg && pr.Op != litmus.RMWCmpxchg {
			data = data.Merge(taint{r})
		}
		in.emit(event{kind: evW, rmwR: r, loc: loc, val: nv, tags: tags | tRMW, addr: addr, data: data, vf: nf, pos: pos, prim: pr.Name})
	}
	rt := taint{r}
	bad := isTop(nv) || isTop(old) || isTop(v)
	switch pr.Ret {
	case litmus.RetOld:
		return old, rt, copyOf(r)
	case litmus.RetNew:
		return nv, rt, nf
	case litmus.RetNewIsZero, litmus.RetNewIsNeg, litmus.RetOldBit:
		in.needs(rt, copyOf(r))
		if bad {
			return top, rt, vfOp
		}
		switch pr.Ret {
		case litmus.RetNewIsZero:
			return boolVal(nv.N == 0 && !nv.IsAddr()), rt, vfOp
		case litmus.RetNewIsNeg:
			return boolVal(nv.N < 0), rt, vfOp
		}
		return boolVal(old.N&v.N != 0), rt, vfOp
	case litmus.RetSuccess:
		return boolVal(writes), rt, 0
	}
	return intVal(0), nil, 0
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
