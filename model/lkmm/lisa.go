package lkmm

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// This file gives herd's LISA dialect its LKMM events, following herd's
// BellSem (herd/BellSem.ml) for the events and their dependencies and
// linux-kernel.bell for the annotations. A LISA annotation names a set of
// the bell directly: r[once] is a read in ONCE, f[rmb] a fence in Rmb.
// The threads produce the same traces as the C interpreter, so the rest of
// the engine does not know which dialect a test was written in.
//
// The bell's tags changed over time, and the LISA tests were written for
// older versions of it:
//
//   - Since Jonas Oberhauser's "tools/memory-model: Distinguish between
//     syntactic and semantic tags" (2024) the bell spells the access tags
//     ONCE, ACQUIRE, RELEASE, NORETURN and MB; every bell before it, back
//     to the 2015 models of Paul McKenney's litmus repository, spells them
//     in lower case (once, acquire, release, noreturn, mb). Both
//     spellings are read. herd7 7.58 with today's bell rejects the
//     lower-case ones ("does not match bell declarations"): that is a
//     spelling change, not a change of meaning.
//   - herd's BackCompat names rcu_read_lock, rcu_read_unlock and sync
//     (herd/BellAction.ml, lib/BellCheck.ml) and the first upstream bell's
//     rcu_lock, rcu_unlock, sync_rcu, before_atomic, after_atomic and
//     after_spinlock are today's rcu-lock, rcu-unlock, sync-rcu,
//     before-atomic, after-atomic and after-spinlock.
//   - deref (rcu_dereference), lderef (lockless_dereference) and assign
//     (rcu_assign_pointer) are read as the events those primitives have
//     in today's linux-kernel.def: rcu_dereference is __load{once} since
//     Alan Stern's February 2018 patch "tools/memory-model: Remove rb-dep,
//     smp_read_barrier_depends, and lockless_dereference", which also
//     dropped lockless_dereference because the kernel had replaced it by
//     READ_ONCE (kernel commit 59ecbbe7b31c); rcu_assign_pointer has always
//     been __store{release}.
//   - Annotations with no counterpart today are input errors that say which
//     model had them (lisaRetired), never silently dropped.

// lisaAccess maps the annotation of r, w and rmw to its tag.
var lisaAccess = map[string]tag{
	"ONCE": tOnce, "ACQUIRE": tAcquire, "RELEASE": tRelease, "MB": tMb, "NORETURN": tNoreturn,
	"once": tOnce, "acquire": tAcquire, "release": tRelease, "mb": tMb, "noreturn": tNoreturn,
	"deref": tOnce, "lderef": tOnce, "assign": tRelease,
}

// lisaFence maps the annotation of f to its fence.
var lisaFence = map[string]fenceKind{
	"MB": fMb, "mb": fMb, "rmb": fRmb, "wmb": fWmb, "barrier": fBarrier,
	"rcu-lock": fRcuLock, "rcu-unlock": fRcuUnlock, "sync-rcu": fSyncRcu,
	"before-atomic": fBeforeAtomic, "after-atomic": fAfterAtomic, "after-spinlock": fAfterSpinlock,
	"after-unlock-lock": fAfterUnlockLock, "after-srcu-read-unlock": fAfterSrcuReadUnlock,
	// herd's BackCompat names.
	"rcu_read_lock": fRcuLock, "rcu_read_unlock": fRcuUnlock, "sync": fSyncRcu,
	// The first upstream bell (January 2018).
	"rcu_lock": fRcuLock, "rcu_unlock": fRcuUnlock, "sync_rcu": fSyncRcu,
	"before_atomic": fBeforeAtomic, "after_atomic": fAfterAtomic, "after_spinlock": fAfterSpinlock,
}

// lisaRetired explains the annotations of older models that today's LKMM
// has no event for.
var lisaRetired = map[string]string{
	"rb_dep": "rb_dep (smp_read_barrier_depends()) is not in the current LKMM: it was a fence of the 2015-2016 models " +
		"of github.com/paulmckrcu/litmus (models/) and of the LKMM as first posted in January 2018, removed before its " +
		"release in Linux v4.17 by Alan Stern's \"tools/memory-model: Remove rb-dep, smp_read_barrier_depends, and " +
		"lockless_dereference\" once READ_ONCE() implied it (kernel commit 76ebbe78f739, v4.15); a marked read now " +
		"orders its address dependencies without it",
	"ctrl": "ctrl (a read heading a control dependency) is not in the LKMM: it was an annotation of the 2015 model " +
		"luc.2015.12.11a of github.com/paulmckrcu/litmus; the LKMM computes control dependencies from the code",
	"lock": "lock was the 2016 models' name for rcu_read_lock() (alan-kernel-2016.04.28.bell of " +
		"github.com/paulmckrcu/litmus); the LKMM spells it rcu-lock",
	"unlock": "unlock was the 2016 models' name for rcu_read_unlock() (alan-kernel-2016.04.28.bell of " +
		"github.com/paulmckrcu/litmus); the LKMM spells it rcu-unlock",
}

// lisaOp is one instruction of a LISA thread, checked and with its
// annotation and branch target resolved.
type lisaOp struct {
	in     *litmus.LISAInstr
	tags   tag       // r, w, rmw
	fence  fenceKind // f, call[sync]
	target int       // b: the index of the instruction the label marks
}

// lisaThread compiles the code of one LISA thread, or reports the first
// problem at its position.
func (p *program) lisaThread(pr *litmus.Proc) ([]lisaOp, error) {
	labels := map[string]int{}
	n := 0
	for _, in := range pr.LISA {
		if in.Op == "" {
			if _, dup := labels[in.Label]; dup {
				return nil, p.errorf(in.Pos(), "label %s defined twice in P%d", in.Label, pr.ID)
			}
			labels[in.Label] = n
			continue
		}
		n++
	}
	var code []lisaOp
	for _, in := range pr.LISA {
		if in.Op == "" {
			continue
		}
		op := lisaOp{in: in, target: -1}
		switch in.Op {
		case "r", "w", "rmw":
			t, err := p.lisaAccessTag(in)
			if err != nil {
				return nil, err
			}
			op.tags = t
		case "f":
			if in.FenceSets {
				return nil, p.errorf(in.Pos(), "%s: fences with label sets are not part of the LKMM", litmus.LISAInstrString(in))
			}
			if len(in.Annots) != 1 {
				return nil, p.errorf(in.Pos(), "%s: a fence takes one annotation, as linux-kernel.bell declares F[Barriers]", litmus.LISAInstrString(in))
			}
			f, err := p.lisaFenceKind(in, in.Annots[0])
			if err != nil {
				return nil, err
			}
			op.fence = f
		case "call":
			// herd turns call[sync] into f[sync] (BellBase.tr_compat)
			// and calls any other call obsolete (BellSem).
			if in.Annots[0] != "sync" {
				return nil, p.errorf(in.Pos(), "%s: herd's call instruction is obsolete; only call[sync], an old spelling of f[sync-rcu], is read", litmus.LISAInstrString(in))
			}
			op.fence = fSyncRcu
		case "b":
			if len(in.Annots) != 0 {
				return nil, p.errorf(in.Pos(), "%s: the LKMM gives branches no annotations", litmus.LISAInstrString(in))
			}
			t, ok := labels[in.Target]
			if !ok {
				return nil, p.errorf(in.Pos(), "unknown label %s in P%d", in.Target, pr.ID)
			}
			op.target = t
		}
		code = append(code, op)
	}
	return code, nil
}

// lisaAccessTag checks the annotations of r, w and rmw and returns the
// event's tag. No annotation is a plain access (and a plain RMW is
// marked by being an RMW), as a C access without a marking primitive is;
// herd's bell would want exactly one.
func (p *program) lisaAccessTag(in *litmus.LISAInstr) (tag, error) {
	if len(in.Annots) > 1 {
		return 0, p.errorf(in.Pos(), "%s: an access takes at most one annotation, as linux-kernel.bell declares %s[Accesses]",
			litmus.LISAInstrString(in), strings.ToUpper(in.Op))
	}
	if len(in.Annots) == 0 {
		return 0, nil
	}
	a := in.Annots[0]
	if t, ok := lisaAccess[a]; ok {
		return t, nil
	}
	if msg, ok := lisaRetired[a]; ok {
		return 0, p.errorf(in.Pos(), "%s: %s", litmus.LISAInstrString(in), msg)
	}
	if _, ok := lisaFence[a]; ok {
		return 0, p.errorf(in.Pos(), "%s: %s is a fence annotation, not an access one", litmus.LISAInstrString(in), a)
	}
	return 0, p.errorf(in.Pos(), "%s: unknown annotation %s (the LKMM's accesses are once, acquire, release, mb and noreturn)", litmus.LISAInstrString(in), a)
}

// lisaFenceKind returns the fence an annotation of f names.
func (p *program) lisaFenceKind(in *litmus.LISAInstr, a string) (fenceKind, error) {
	if f, ok := lisaFence[a]; ok {
		return f, nil
	}
	if msg, ok := lisaRetired[a]; ok {
		return 0, p.errorf(in.Pos(), "%s: %s", litmus.LISAInstrString(in), msg)
	}
	if _, ok := lisaAccess[a]; ok {
		return 0, p.errorf(in.Pos(), "%s: %s is an access annotation, not a fence one", litmus.LISAInstrString(in), a)
	}
	return 0, p.errorf(in.Pos(), "%s: unknown fence %s (the LKMM's are mb, rmb, wmb, barrier, rcu-lock, rcu-unlock, sync-rcu, "+
		"before-atomic, after-atomic, after-spinlock, after-unlock-lock and after-srcu-read-unlock)", litmus.LISAInstrString(in), a)
}

// lisaNames calls f with every location a LISA test's code names: in
// herd, every name of an instruction's operands is a location
// (BellBase.fold_addrs).
func lisaNames(t *litmus.Test, f func(string)) {
	arg := func(a *litmus.LISAArg) {
		if a != nil && a.Kind == litmus.LISAName {
			f(a.Name)
		}
	}
	for _, pr := range t.Procs {
		for _, in := range pr.LISA {
			if in.Addr != nil {
				arg(in.Addr.Base)
				arg(in.Addr.Off)
			}
			arg(in.Val)
			if in.Expr != nil {
				arg(in.Expr.X)
				arg(in.Expr.Y)
			}
		}
	}
}

// lisaRun runs the thread's LISA code, as block runs C code. A branch
// back to an instruction already reached that way loopBound times cuts
// the path, as herd's -unroll does for assembly (herd/mem.ml).
func (in *interp) lisaRun() {
	code := in.th.lisa
	back := map[int]int{}
	for pc := 0; pc < len(code) && !in.stopped(); {
		op := &code[pc]
		next := pc + 1
		switch op.in.Op {
		case "r":
			loc, at, ok := in.lisaAddr(op.in.Addr)
			if !ok {
				return
			}
			v, i := in.read(loc, op.tags, at, op.in.Pos(), lisaPrim(op.in))
			if i < 0 {
				return
			}
			in.regs[op.in.Reg] = regVal{v: v, t: taint{i}, f: copyOf(i)}
		case "w":
			loc, at, ok := in.lisaAddr(op.in.Addr)
			if !ok {
				return
			}
			v, t := in.lisaArg(op.in.Val)
			in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, tags: op.tags, addr: at, data: t, vf: in.nd, pos: op.in.Pos(), prim: lisaPrim(op.in)})
		case "f", "call":
			t := tag(0)
			if op.fence == fMb {
				t = tMb
			}
			in.emit(event{kind: evF, rmwR: -1, loc: -1, fence: op.fence, tags: t, pos: op.in.Pos(), prim: lisaPrim(op.in)})
		case "rmw":
			in.lisaRMW(op)
		case "mov":
			v, t := in.lisaExpr(op.in.Expr, "", regVal{})
			in.regs[op.in.Reg] = regVal{v: v, t: t, f: in.nd}
		case "b":
			jump := true
			if op.in.Reg != "" {
				// BellSem: the tested register feeds a commit event,
				// which every later event depends on by ctrl.
				r := in.lisaReg(op.in.Reg)
				in.ctrl = in.ctrl.Merge(r.t)
				in.nd = r.f
				jump = in.branch(r.v, r.t).Truth()
			}
			if jump {
				next = op.target
				if next <= pc {
					back[next]++
					if back[next] > in.loopBound {
						in.cut = true
						return
					}
				}
			}
		}
		pc = next
	}
}

// lisaRMW runs rmw[ann] r op addr as herd's BellSem does: the register
// gets the value read; memory gets op's value, computed with r standing
// for the value read when op mentions r (a data dependency of the write
// on the read, herd's iico) and from the registers as they are otherwise
// (an exchange). herd reads op's registers as non-data inputs, so their
// dependencies reach the write as address dependencies (herd's
// make_procrels: a store's dependency through a register read that is
// not a data port is addr).
func (in *interp) lisaRMW(op *lisaOp) {
	loc, at, ok := in.lisaAddr(op.in.Addr)
	if !ok {
		return
	}
	old, ok := in.pick(loc)
	if !ok {
		return
	}
	r := in.emit(event{kind: evR, rmwR: -1, loc: loc, val: old, tags: op.tags | tRMW, addr: at, pos: op.in.Pos(), prim: lisaPrim(op.in)})
	self := lisaMentions(op.in.Expr, op.in.Reg)
	var v Val
	var vt taint
	var data taint
	if self {
		v, vt = in.lisaExpr(op.in.Expr, op.in.Reg, regVal{v: old, t: taint{r}, f: copyOf(r)})
		data = taint{r}
	} else {
		v, vt = in.lisaExpr(op.in.Expr, "", regVal{})
	}
	if in.stopped() {
		return
	}
	vf := in.nd
	if vf == vfOp {
		data = data.Merge(vt) // the reads the computed value needs
	}
	in.emit(event{kind: evW, rmwR: r, loc: loc, val: v, tags: op.tags | tRMW, addr: at.Merge(vt), data: data, vf: vf, pos: op.in.Pos(), prim: lisaPrim(op.in)})
	in.regs[op.in.Reg] = regVal{v: old, t: taint{r}, f: copyOf(r)}
}

// lisaMentions reports whether e reads register reg.
func lisaMentions(e *litmus.LISAExpr, reg string) bool {
	is := func(a *litmus.LISAArg) bool { return a != nil && a.Kind == litmus.LISAReg && a.Name == reg }
	return is(e.X) || is(e.Y)
}

// lisaReg returns a register's value; a register never written reads as
// 0, as in herd.
func (in *interp) lisaReg(name string) regVal {
	if r, ok := in.regs[name]; ok {
		return r
	}
	return regVal{v: intVal(0)}
}

// lisaArg evaluates an operand: a register, the address of a location, or
// an integer.
// in.nd is then its vflow.
func (in *interp) lisaArg(a *litmus.LISAArg) (Val, taint) {
	in.nd = 0
	switch a.Kind {
	case litmus.LISAReg:
		r := in.lisaReg(a.Name)
		in.nd = r.f
		return r.v, r.t
	case litmus.LISAName:
		return addrVal(in.p.index[a.Name]), nil
	}
	return intVal(a.Int), nil
}

// lisaAddr evaluates a location operand to a location and the reads its
// address depends on. A value that is not an address makes the path
// infeasible, as a C dereference of an integer does.
func (in *interp) lisaAddr(a *litmus.LISAAddr) (int, taint, bool) {
	v, t := in.lisaArg(a.Base)
	f := in.nd
	if a.Off != nil {
		o, ot := in.lisaArg(a.Off)
		f = in.opFlow("+", v, t, f, o, ot, in.nd)
		v = in.binop(a.Off.Pos(), "+", v, o)
		t = t.Merge(ot)
	}
	if in.stopped() {
		return 0, nil, false
	}
	in.needs(t, f)
	if !v.IsAddr() {
		in.dead = true
		return 0, nil, false
	}
	return v.Loc(), t, true
}

// lisaExpr evaluates the operation of mov and rmw; register self, when
// not "", stands for val. in.nd is then the vflow of the result.
func (in *interp) lisaExpr(e *litmus.LISAExpr, self string, val regVal) (Val, taint) {
	arg := func(a *litmus.LISAArg) (Val, taint) {
		if self != "" && a.Kind == litmus.LISAReg && a.Name == self {
			in.nd = val.f
			return val.v, val.t
		}
		return in.lisaArg(a)
	}
	x, tx := arg(e.X)
	fx := in.nd
	if e.Op == "" {
		return x, tx
	}
	y, ty := arg(e.Y)
	fy := in.nd
	t := tx.Merge(ty)
	ops := map[string]string{"add": "+", "xor": "^", "and": "&", "eq": "==", "neq": "!="}
	in.nd = in.opFlow(ops[e.Op], x, tx, fx, y, ty, fy)
	if isTop(x) || isTop(y) {
		return top, t
	}
	switch e.Op {
	case "add":
		return in.binop(e.Lparen, "+", x, y), t
	case "xor":
		if x == y {
			// herd's xor of equal values is 0, addresses included
			// (lib/symbValue.ml): "mov r9 (xor r1 r1)" makes a false
			// dependency on whatever r1 holds.
			return intVal(0), t
		}
		return in.binop(e.Lparen, "^", x, y), t
	case "and":
		return in.binop(e.Lparen, "&", x, y), t
	case "eq":
		return boolVal(x == y), t
	case "neq":
		return boolVal(x != y), t
	}
	in.fail(e.Pos(), "unsupported LISA operator %s", e.Op)
	return Val{}, nil
}

// lisaPrim names an instruction in witnesses.
func lisaPrim(in *litmus.LISAInstr) string {
	if in.Op == "f" || in.Op == "call" {
		return litmus.LISAInstrString(in)
	}
	return fmt.Sprintf("%s[%s]", in.Op, strings.Join(in.Annots, ","))
}
