package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/model/cir"
	"github.com/litmus-dev/litmus/model/kmap"
)

// The per-thread function on arm64, and C threads compiled for it. The
// loop is the one of genx86.go; the trampoline passes the context in x0.
//
// Registers: the C registers take x0-x9 and x19-x24 in slot order (x8 and
// x0 are clobbered only by the barrier's sched_yield, before an instance's
// registers are set); the run loop keeps its context in x25, the instance
// base, the loop budget, the arena bounds and the dropped-access count in
// the highest free ones, and the address of each location the thread
// names in a register of its own when enough are left, so that an access
// is one instruction as in the kernel. x10-x13 carry operands a row needs
// in registers; x14-x17 are the rows' scratch. x18 (the platform
// register) and x26-x30 (Go's closure context, assembler temporary, g,
// frame pointer, and the link register) are never touched.

var a64Pool = []areg{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 20, 21, 22, 23, 24}

const (
	a64Ctx             = areg(25)
	a64V               = areg(10) // {v}, {mask} materialised
	a64W               = areg(11) // {w} materialised
	a64Addr            = areg(12) // {addr} materialised (a location or a checked pointer)
	a64Tmp             = areg(13)
	sysSchedYieldARM64 = 124
	ctxDummy           = 128 // 64 bytes of the context: where a dropped access goes (to 191)
)

// a64Thread is the code generation state of one arm64 thread.
type a64Thread struct {
	a                *a64asm
	p                *program
	base, budget     areg
	lo, hi, bad      areg // arena bounds and dropped-access count (check only)
	check            bool
	abandon, bodyEnd int
	locReg           map[*variable]areg
	slot             []areg
	labels           map[int]int
	ct               *cir.Thread
	arch             kmap.Arch
}

// genA64C generates a C thread for arm64 (LSE or LL/SC as p.arch says):
// the registers (allocRegs), then per instance the wait for the other
// threads (a64Sync), the random delay, the instance's addresses and
// initial values (loadInstance), the thread's code, and the results
// (storeResults).
func (p *program) genA64C(o Options, nthreads, me int, ct *cir.Thread, inits map[int]value, obs []int) ([]byte, error) {
	arch := kmap.Arch(p.arch)
	a := newA64asm()
	t := &a64Thread{a: a, p: p, ct: ct, arch: arch, labels: map[int]int{}, locReg: map[*variable]areg{},
		abandon: a.newLabel(), bodyEnd: a.newLabel()}
	loops := ct.Loops || spins(ct, arch)
	vars, err := t.allocRegs(inits, loops)
	if err != nil {
		return nil, err
	}

	a.movReg(a64Ctx, 0)
	top, done, next, drop := a.newLabel(), a.newLabel(), a.newLabel(), a.newLabel()
	a.bind(top)
	a.ldst(true, 8, 14, a64Ctx, ctxI)
	a.ldst(true, 8, 15, a64Ctx, ctxN)
	a.cmpReg(14, 15)
	a.bcond("hs", done)
	a64Sync(a, o.Sync, nthreads, me, done)
	if o.MaxDelay > 0 {
		a64Delay(a)
	}
	t.loadInstance(vars, loops, inits)

	for _, in := range ct.Code {
		if err := t.instr(in); err != nil {
			return nil, err
		}
	}
	t.storeResults(obs, top, next, drop, done)
	return a.finish()
}

// allocRegs gives the thread's slots, its base, its loop budget and
// pointer-check registers and, while registers last, one register per
// location it uses; it returns those locations in order of first use.
func (t *a64Thread) allocRegs(inits map[int]value, loops bool) ([]*variable, error) {
	p, ct := t.p, t.ct
	// Which locations and checks does the thread need?
	var vars []*variable
	seen := map[*variable]bool{}
	note := func(o cir.Operand) {
		if v := p.varOf(o); v != nil && !seen[v] {
			seen[v] = true
			vars = append(vars, v)
		}
	}
	for _, in := range ct.Code {
		note(in.Addr)
		note(in.X)
		note(in.Y)
		for _, x := range in.Args {
			note(x)
		}
		if in.Op == cir.Prim && in.Addr.Kind == cir.Slot {
			t.check = true
		}
	}
	for s := range ct.Names { // in slot order, not the map's
		if v := inits[s]; v.sym != "" {
			if w, _, ok := p.elemOf(v.sym); ok && !seen[w] {
				seen[w] = true
				vars = append(vars, w)
			}
		}
	}
	free := append([]areg(nil), a64Pool...)
	if ct.NSlots > len(free) {
		return nil, fmt.Errorf("not supported by run: the thread needs %d registers, arm64 has %d left for it", ct.NSlots, len(free))
	}
	t.slot, free = free[:ct.NSlots], free[ct.NSlots:]
	take := func() (areg, bool) {
		if len(free) == 0 {
			return 0, false
		}
		r := free[len(free)-1]
		free = free[:len(free)-1]
		return r, true
	}
	var ok bool
	if t.base, ok = take(); !ok {
		return nil, fmt.Errorf("not supported by run: the thread needs %d registers, arm64 has %d left for it", ct.NSlots, len(a64Pool)-1)
	}
	if loops {
		if t.budget, ok = take(); !ok {
			return nil, fmt.Errorf("not supported by run: no register left for the loop budget")
		}
	}
	if t.check {
		r1, ok1 := take()
		r2, ok2 := take()
		r3, ok3 := take()
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("not supported by run: no register left to check pointers")
		}
		t.lo, t.hi, t.bad = r1, r2, r3
	}
	for _, v := range vars {
		if r, ok := take(); ok {
			t.locReg[v] = r
		}
	}
	return vars, nil
}

// a64Sync waits, at the top of an instance, for the other threads as
// sync says: each thread's slot reaching the instance (SyncSpin, yielding
// and giving up at the wait limit, to done), or the instance's timebase
// tick (SyncTimebase). x14 holds the instance's index.
func a64Sync(a *a64asm, sync Sync, nthreads, me, done int) {
	switch sync {
	case SyncSpin:
		// x16 = iter0 + i + 1: "I have reached instance i".
		a.ldst(true, 8, 16, a64Ctx, ctxIter0)
		a.reg3("add", 16, 16, 14)
		a.addImm(false, 16, 16, 1)
		a.ldst(true, 8, 15, a64Ctx, ctxMySlot)
		a.ldst(false, 8, 16, 15, 0)
		for j := 0; j < nthreads; j++ {
			if j == me {
				continue
			}
			again, wait, ok := a.newLabel(), a.newLabel(), a.newLabel()
			a.bind(again)
			a.ldst(true, 8, 15, a64Ctx, ctxSlots)
			a.ldst(true, 8, 17, a64Ctx, ctxSpin)
			a.bind(wait)
			a.ldst(true, 8, 14, 15, int64(j*slotStride))
			a.cmpReg(14, 16)
			a.bcond("hs", ok)
			a.yield()
			a.subsImm(17, 17, 1)
			a.bcond("ne", wait)
			a.movImm(8, sysSchedYieldARM64)
			a.svc0()
			check, resume := a.newLabel(), a.newLabel()
			a.mrsCNTVCT(17)
			a.ldst(true, 8, 14, a64Ctx, ctxI)
			a.ldst(true, 8, 16, a64Ctx, ctxIter0)
			a.reg3("add", 16, 16, 14)
			a.addImm(false, 16, 16, 1)
			a.ldst(true, 8, 14, a64Ctx, ctxWaitFor)
			a.cmpReg(16, 14)
			a.bcond("eq", check)
			a.ldst(false, 8, 16, a64Ctx, ctxWaitFor)
			a.ldst(true, 8, 14, a64Ctx, ctxWaitMax)
			a.reg3("add", 17, 17, 14)
			a.ldst(false, 8, 17, a64Ctx, ctxWaitEnd)
			a.b(resume)
			a.bind(check)
			a.ldst(true, 8, 14, a64Ctx, ctxWaitEnd)
			a.cmpReg(17, 14)
			a.bcond("hs", done)
			a.bind(resume)
			a.b(again)
			a.bind(ok)
		}
	case SyncTimebase:
		a.ldst(true, 8, 15, a64Ctx, ctxTBPeriod)
		a.ldst(true, 8, 16, a64Ctx, ctxTB0)
		a.madd(16, 14, 15, 16)
		wait := a.newLabel()
		a.bind(wait)
		a.mrsCNTVCT(17)
		a.cmpReg(17, 16)
		a.bcond("lo", wait)
	}
}

// a64Delay spins for the instance's random delay (ctxDelays[i] turns).
func a64Delay(a *a64asm) {
	skip, loop := a.newLabel(), a.newLabel()
	a.ldst(true, 8, 14, a64Ctx, ctxI)
	a.ldst(true, 8, 15, a64Ctx, ctxDelays)
	a.ldrIdx(4, 16, 15, 14)
	a.cbz(false, true, 16, skip)
	a.bind(loop)
	a.subsImm(16, 16, 1)
	a.bcond("ne", loop)
	a.bind(skip)
}

// loadInstance loads the instance's base, the locations' addresses, the
// loop budget, the arena bounds and the initial register values.
func (t *a64Thread) loadInstance(vars []*variable, loops bool, inits map[int]value) {
	a, ct := t.a, t.ct
	a.ldst(true, 8, 14, a64Ctx, ctxI)
	a.ldst(true, 8, 15, a64Ctx, ctxBases)
	a.ldrIdx(8, t.base, 15, 14)
	for _, v := range vars { // in order: the same code every time
		if r, ok := t.locReg[v]; ok {
			t.addrInto(r, v, 0)
		}
	}
	if loops {
		a.ldst(true, 8, t.budget, a64Ctx, ctxBudget)
	}
	if t.check {
		a.ldst(true, 8, t.lo, a64Ctx, ctxArenaLo)
		a.ldst(true, 8, t.hi, a64Ctx, ctxArenaHi)
		a.movImm(t.bad, 0)
	}
	for s := range ct.Names {
		t.setValue(t.slot[s], inits[s])
	}
}

// storeResults writes the observed slots and the status word of the
// instance to its results row, steps to the next instance (back to top),
// and ends the thread at done; an abandoned or dropped instance stores
// its status only.
func (t *a64Thread) storeResults(obs []int, top, next, drop, done int) {
	a := t.a
	nres := len(obs) + 1
	resultsAddr := func() {
		a.ldst(true, 8, 14, a64Ctx, ctxI)
		a.movImm(15, int64(nres*8))
		a.ldst(true, 8, 16, a64Ctx, ctxResults)
		a.madd(14, 14, 15, 16)
	}
	a.bind(t.bodyEnd)
	if t.check {
		a.cbz(true, true, t.bad, drop)
	}
	resultsAddr()
	for k, s := range obs {
		a.ldst(false, 8, t.slot[s], 14, int64(k*8))
	}
	a.ldst(false, 8, aZR, 14, int64((nres-1)*8))
	a.bind(next)
	a.ldst(true, 8, 14, a64Ctx, ctxI)
	a.addImm(false, 14, 14, 1)
	a.ldst(false, 8, 14, a64Ctx, ctxI)
	a.b(top)
	for _, st := range []struct {
		l    int
		code int64
	}{{t.abandon, statusAbandoned}, {drop, statusDropped}} {
		a.bind(st.l)
		resultsAddr()
		a.movImm(15, st.code)
		a.ldst(false, 8, 15, 14, int64((nres-1)*8))
		a.b(next)
	}
	a.bind(done)
	a.ret()
}

// addrInto sets r to the address of v's element at byte offset off in the
// current instance.
func (t *a64Thread) addrInto(r areg, v *variable, off int64) {
	d := v.off + off
	if lr, ok := t.locReg[v]; ok && lr != r {
		if off == 0 {
			t.a.movReg(r, lr)
		} else {
			t.a.addImm(false, r, lr, off)
		}
		return
	}
	if d < 1<<24 {
		t.a.addImm(false, r, t.base, d)
		return
	}
	t.a.movImm(a64Tmp, d)
	t.a.reg3("add", r, t.base, a64Tmp)
}

// setValue sets register r to val.
func (t *a64Thread) setValue(r areg, val value) {
	if val.sym != "" {
		v, e, ok := t.p.elemOf(val.sym)
		if !ok {
			t.a.fail("unknown location %s", val.sym)
			return
		}
		t.addrInto(r, v, int64(e*v.elem))
		return
	}
	t.a.movImm(r, val.v)
}

// reg returns o in a register, materialising constants and addresses into
// scratch.
func (t *a64Thread) reg(o cir.Operand, scratch areg) areg {
	switch o.Kind {
	case cir.Slot:
		return t.slot[o.Slot]
	case cir.Const:
		// Even 0 goes to a register: register 31 is SP, not XZR, in the
		// immediate forms (CMP, ADD).
		t.a.movImm(scratch, o.Val)
	case cir.Addr:
		v := t.p.varOf(o)
		t.addrInto(scratch, v, int64(o.Elem*v.elem))
	}
	return scratch
}

func (t *a64Thread) label(l int) int { return asmLabel(t.labels, t.a, l) }

// loopCheck counts one back edge against the budget.
func (t *a64Thread) loopCheck() {
	t.a.subsImm(t.budget, t.budget, 1)
	t.a.bcond("eq", t.abandon)
}

var a64CmpCond = map[string]string{"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}

func (t *a64Thread) instr(in cir.Instr) error {
	a := t.a
	switch in.Op {
	case cir.Label:
		a.bind(t.label(in.Label))
	case cir.Jump:
		if in.Back {
			t.loopCheck()
		}
		a.b(t.label(in.Target))
	case cir.BranchZ:
		switch in.X.Kind {
		case cir.Const:
			if in.X.Val == 0 {
				a.b(t.label(in.Target))
			}
		case cir.Slot:
			a.cbz(false, true, t.slot[in.X.Slot], t.label(in.Target))
		}
	case cir.Mov:
		d := t.slot[in.Dst]
		switch in.X.Kind {
		case cir.Slot:
			if s := t.slot[in.X.Slot]; s != d {
				a.movReg(d, s)
			}
		default:
			if r := t.reg(in.X, d); r != d {
				a.movReg(d, r)
			}
		}
	case cir.Unary:
		d, x := t.slot[in.Dst], t.reg(in.X, a64V)
		switch in.ALU {
		case "-":
			a.neg(d, x)
		case "~":
			a.mvn(d, x)
		case "!":
			a.cmpImm(false, x, 0)
			a.cset(d, "eq")
		}
	case cir.Binary:
		d, x, y := t.slot[in.Dst], t.reg(in.X, a64V), t.reg(in.Y, a64W)
		switch in.ALU {
		case "+", "-", "&", "|", "^", "*", "<<":
			op := map[string]string{"+": "add", "-": "sub", "&": "and", "|": "orr", "^": "eor", "*": "mul", "<<": "lsl"}[in.ALU]
			a.reg3(op, d, x, y)
		case ">>":
			a.reg3("asr", d, x, y)
		case "&&", "||":
			a.cmpImm(false, x, 0)
			a.cset(14, "ne")
			a.cmpImm(false, y, 0)
			a.cset(15, "ne")
			op := "and"
			if in.ALU == "||" {
				op = "orr"
			}
			a.reg3(op, d, 14, 15)
		default:
			a.cmpReg(x, y)
			a.cset(d, a64CmpCond[in.ALU])
		}
	case cir.Prim:
		return t.prim(in)
	}
	return a.err
}

// prim expands a primitive from its arm64 row.
func (t *a64Thread) prim(in cir.Instr) error {
	insns, err := parsedRow(t.arch, in.Prim)
	if err != nil {
		return t.p.unsupported(in.Pos, "%s", err)
	}
	a := t.a
	b := map[string]areg{}
	if kmap.Uses(insns, "{addr}") {
		switch in.Addr.Kind {
		case cir.Addr:
			v := t.p.varOf(in.Addr)
			if lr, ok := t.locReg[v]; ok && in.Addr.Elem == 0 {
				b["{addr}"] = lr
			} else {
				t.addrInto(a64Addr, v, int64(in.Addr.Elem*v.elem))
				b["{addr}"] = a64Addr
			}
		case cir.Slot:
			// A pointer from a register: use it when it points into the
			// instances, else a dummy word, counting the access so the
			// instance is dropped. CSEL keeps the address dependency on
			// the pointer without adding a branch (a control dependency
			// would order later stores, which the code does not ask for).
			p := t.slot[in.Addr.Slot]
			a.addImm(false, a64Addr, a64Ctx, ctxDummy)
			a.cmpReg(p, t.lo)
			a.ccmp(p, t.hi, 2, "hs")
			a.csel(false, a64Addr, p, a64Addr, "lo")
			a.csel(true, t.bad, t.bad, t.bad, "lo")
			b["{addr}"] = a64Addr
		default:
			return t.p.unsupported(in.Pos, "%s on the constant address %d", in.Prim, in.Addr.Val)
		}
	}
	if len(in.Args) > 0 {
		b["{v}"] = t.reg(in.Args[0], a64V)
	}
	if len(in.Args) > 1 {
		b["{w}"] = t.reg(in.Args[1], a64W)
	}
	if in.Mask != nil {
		b["{mask}"] = t.reg(*in.Mask, a64V)
	}
	if in.Dst >= 0 {
		b["{ret}"] = t.slot[in.Dst]
	} else {
		b["{ret}"] = 17
	}
	if err := expandA64Row(a, insns, b, t); err != nil {
		return t.p.unsupported(in.Pos, "%s: %v", in.Prim, err)
	}
	return nil
}

// a64Operand is a parsed operand of an arm64 row.
type a64Operand struct {
	reg   areg
	w     bool // a W register
	isReg bool
	mem   bool // [reg]
	imm   int64
	isImm bool
	word  string // a condition, barrier option, prefetch op or label
}

func parseA64Operand(s string, bind map[string]areg) (a64Operand, error) {
	var o a64Operand
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		inner, err := parseA64Operand(s[1:len(s)-1], bind)
		if err != nil || !inner.isReg {
			return o, fmt.Errorf("bad memory operand %s", s)
		}
		inner.mem, inner.isReg = true, false
		return inner, nil
	}
	if strings.HasPrefix(s, "{") {
		r, ok := bind[s]
		if !ok {
			return o, fmt.Errorf("placeholder %s has no value here", s)
		}
		return a64Operand{reg: r, isReg: true}, nil
	}
	if strings.HasPrefix(s, "#") {
		v, err := strconv.ParseInt(s[1:], 0, 64)
		if err != nil {
			return o, fmt.Errorf("bad immediate %s", s)
		}
		return a64Operand{imm: v, isImm: true}, nil
	}
	if s == "xzr" || s == "wzr" {
		return a64Operand{reg: aZR, isReg: true, w: s == "wzr"}, nil
	}
	if len(s) > 1 && (s[0] == 'x' || s[0] == 'w') {
		if n, err := strconv.Atoi(s[1:]); err == nil && n >= 0 && n <= 30 {
			return a64Operand{reg: areg(n), isReg: true, w: s[0] == 'w'}, nil
		}
	}
	return a64Operand{word: s}, nil
}

// splitOrder splits an LSE mnemonic's ordering suffix: "ldaddal" is
// ("ldadd", acquire, release).
func splitOrder(m, base string) (acq, rel, ok bool) {
	if !strings.HasPrefix(m, base) {
		return false, false, false
	}
	switch m[len(base):] {
	case "":
		return false, false, true
	case "a":
		return true, false, true
	case "l":
		return false, true, true
	case "al":
		return true, true, true
	}
	return false, false, false
}

// expandA64Row assembles a row with its placeholders bound; unconditional
// backward branches (spin loops) count against t's loop budget.
func expandA64Row(a *a64asm, insns []kmap.Insn, bind map[string]areg, t *a64Thread) error {
	parse := func(arg string) (a64Operand, error) { return parseA64Operand(arg, bind) }
	return expandRow(a, insns, parse, func(in kmap.Insn, ops []a64Operand, target int, back bool) error {
		if back && in.Op == "b" && t != nil {
			t.loopCheck()
		}
		if err := a64insn(a, in.Op, ops, target); err != nil {
			return fmt.Errorf("%s: %v", in, err)
		}
		return nil
	})
}

// a64insn encodes one instruction of a row.
func a64insn(a *a64asm, m string, ops []a64Operand, target int) error {
	need := func(n int) error {
		if len(ops) != n {
			return fmt.Errorf("%s takes %d operands, found %d", m, n, len(ops))
		}
		return nil
	}
	regs := func(n int) error {
		if err := need(n); err != nil {
			return err
		}
		for _, o := range ops {
			if !o.isReg {
				return fmt.Errorf("%s: expected registers", m)
			}
		}
		return nil
	}
	memAt := func(i int) error {
		if i >= len(ops) || !ops[i].mem {
			return fmt.Errorf("%s: expected [register] as operand %d", m, i+1)
		}
		return nil
	}
	switch {
	case m == "ldr" || m == "str":
		if err := need(2); err != nil {
			return err
		}
		if err := memAt(1); err != nil {
			return err
		}
		a.ldst(m == "ldr", 8, ops[0].reg, ops[1].reg, 0)
	case m == "ldar" || m == "stlr":
		if err := memAt(1); err != nil {
			return err
		}
		if m == "ldar" {
			a.ldar(ops[0].reg, ops[1].reg)
		} else {
			a.stlr(ops[0].reg, ops[1].reg)
		}
	case m == "ldxr" || m == "ldaxr":
		if err := memAt(1); err != nil {
			return err
		}
		a.ldxr(m == "ldaxr", ops[0].reg, ops[1].reg)
	case m == "stxr" || m == "stlxr":
		if err := memAt(2); err != nil {
			return err
		}
		a.stxr(m == "stlxr", ops[0].reg, ops[1].reg, ops[2].reg)
	case m == "prfm":
		if err := memAt(1); err != nil || ops[0].word != "pstl1strm" {
			return fmt.Errorf("prfm: only pstl1strm, [reg]")
		}
		a.prfmPSTL1STRM(ops[1].reg)
	case m == "dmb":
		if err := need(1); err != nil {
			return err
		}
		a.dmb(ops[0].word)
	case m == "yield":
		a.yield()
	case m == "nop":
		a.nop()
	case m == "mov":
		if err := need(2); err != nil {
			return err
		}
		if ops[1].isImm {
			a.movImm(ops[0].reg, ops[1].imm)
		} else {
			a.movReg(ops[0].reg, ops[1].reg)
		}
	case m == "add" || m == "sub":
		if err := need(3); err != nil {
			return err
		}
		if ops[2].isImm {
			a.addImm(m == "sub", ops[0].reg, ops[1].reg, ops[2].imm)
		} else {
			a.reg3(m, ops[0].reg, ops[1].reg, ops[2].reg)
		}
	case m == "and" || m == "orr" || m == "eor" || m == "bic":
		if err := regs(3); err != nil {
			return err
		}
		a.reg3(m, ops[0].reg, ops[1].reg, ops[2].reg)
	case m == "neg" || m == "mvn":
		if err := regs(2); err != nil {
			return err
		}
		if m == "neg" {
			a.neg(ops[0].reg, ops[1].reg)
		} else {
			a.mvn(ops[0].reg, ops[1].reg)
		}
	case m == "cmp" || m == "cmn":
		if err := need(2); err != nil {
			return err
		}
		if ops[1].isImm {
			a.cmpImm(m == "cmn", ops[0].reg, ops[1].imm)
		} else if m == "cmp" {
			a.cmpReg(ops[0].reg, ops[1].reg)
		} else {
			return fmt.Errorf("cmn with a register is not supported")
		}
	case m == "tst":
		if err := regs(2); err != nil {
			return err
		}
		a.tst(ops[0].reg, ops[1].reg)
	case m == "cset":
		if err := need(2); err != nil {
			return err
		}
		a.cset(ops[0].reg, ops[1].word)
	case m == "b":
		a.b(target)
	case strings.HasPrefix(m, "b."):
		a.bcond(m[2:], target)
	case m == "cbz" || m == "cbnz":
		if err := need(1); err != nil {
			return err
		}
		a.cbz(m == "cbnz", !ops[0].w, ops[0].reg, target)
	default:
		for _, op := range []string{"add", "clr", "eor", "set"} {
			if acq, rel, ok := splitOrder(m, "ld"+op); ok {
				if err := memAt(2); err != nil {
					return err
				}
				a.lse(op, acq, rel, ops[0].reg, ops[1].reg, ops[2].reg)
				return a.err
			}
			if acq, rel, ok := splitOrder(m, "st"+op); ok && !acq {
				if err := memAt(1); err != nil {
					return err
				}
				a.lse(op, false, rel, ops[0].reg, aZR, ops[1].reg)
				return a.err
			}
		}
		if acq, rel, ok := splitOrder(m, "swp"); ok {
			if err := memAt(2); err != nil {
				return err
			}
			a.lse("swp", acq, rel, ops[0].reg, ops[1].reg, ops[2].reg)
			return a.err
		}
		if acq, rel, ok := splitOrder(m, "cas"); ok {
			if err := memAt(2); err != nil {
				return err
			}
			a.cas(acq, rel, ops[0].reg, ops[1].reg, ops[2].reg)
			return a.err
		}
		return fmt.Errorf("unsupported instruction %s", m)
	}
	return a.err
}
