package harness

import (
	"fmt"
	"strings"
)

// The per-thread function on x86-64. The trampoline passes the thread's
// context in %rdi; the function loops over the batch's instances:
//
//	top:     if ctx.i >= ctx.n: return
//	         start barrier (spin), or wait for the timebase, or nothing
//	         random delay
//	         base = ctx.bases[i]; budget = ctx.budget; the test's initial registers
//	         <the test's code>
//	bodyEnd: results[i] = the observed registers, status 0
//	next:    ctx.i++; goto top
//	abandon: results[i].status = 1; goto next
//	drop:    results[i].status = 2; goto next
//
// An instance is abandoned when a thread takes more loop back edges in it
// than Options.LoopBound, and dropped when the test accesses memory
// through a register that does not hold an address of the instance (a
// NULL pointer, say: the model drops such executions too, and on the
// machine it would be a fault).
// Between the barrier and bodyEnd nothing runs but the test's own
// instructions (and, at a loop's back edge, the budget count).

// Thread context layout, shared by the generated code of every
// architecture and the Go side (run.go).
const (
	ctxN        = 0   // instances in this batch
	ctxI        = 8   // the instance being run (owned by the thread)
	ctxBases    = 16  // *[n]uintptr: each instance's base address
	ctxResults  = 24  // *[n*nres]uint64
	ctxSlots    = 32  // the barrier slots; thread j's at +j*slotStride
	ctxMySlot   = 40  // this thread's barrier slot
	ctxIter0    = 48  // the global number of the batch's first instance
	ctxDelays   = 56  // *[n]uint32, or 0
	ctxTB0      = 64  // timebase: the tick of instance 0
	ctxTBPeriod = 72  // timebase: ticks between instances
	ctxBudget   = 80  // Options.LoopBound
	ctxArenaLo  = 88  // the instances' memory: an access through a register
	ctxArenaHi  = 96  // must fall in [lo, hi) or the instance is dropped
	ctxWaitMax  = 104 // counter ticks a thread waits at the barrier before it gives up the batch
	ctxSpin     = 112 // PAUSEs at the barrier before a sched_yield
	ctxLeft     = 120 // the loop budget left, when no register holds it
	ctxWaitFor  = 192 // the barrier value whose wait started at ctxWaitFrom...
	ctxWaitEnd  = 200 // ...and the tick it gives up at
	ctxSize     = 256

	slotStride = 128 // two cache lines per barrier slot (adjacent-line prefetch)
)

const sysSchedYieldAMD64 = 24

// x86Thread is the code generation state of one thread.
type x86Thread struct {
	a                           *x86asm
	ctx, base, budget, chk      xreg
	abandon, bodyEnd, drop      int
	abandonPop, dropPop         int // the same after a pushfq
	usedAbandonPop, usedDropPop bool
	budgetMem                   bool // the budget is ctx.left, not a register
}

// x86Init is an initial register value.
type x86Init struct {
	reg xreg
	val value
}

// x86Spec describes a thread's registers for the wrapper.
type x86Spec struct {
	used  map[xreg]bool // registers the test's code uses
	inits []x86Init
	obs   []xreg // observed registers, in result slot order
	loops bool
	// check reserves a register for checking the addresses of X86
	// memory operands that use registers.
	check bool
	// budgetInMemory keeps the loop budget in the context instead of a
	// register, for a C thread that needs every register.
	budgetInMemory bool
}

// reservedOrder is where the wrapper takes its registers from, first
// free first; never RAX, RCX, RDX, R11 (the barrier's scratch and what
// SYSCALL clobbers), RSP, RBP (Go's frame pointer) or R14 (Go's g).
var reservedOrder = []xreg{r15, r13, r12, r10, r9, r8, rDI, rSI, rBX}

// genX86 generates a thread's function around body.
func (p *program) genX86(o Options, nthreads, me int, spec x86Spec, body func(t *x86Thread) error) ([]byte, error) {
	var free []xreg
	for _, r := range reservedOrder {
		if !spec.used[r] {
			free = append(free, r)
		}
	}
	need := 2
	if spec.loops && !spec.budgetInMemory {
		need++
	}
	if spec.check {
		need++
	}
	if len(free) < need {
		return nil, fmt.Errorf("not supported by run: the test uses too many registers (the run loop needs %d of its own)", need)
	}
	a := newX86asm()
	t := &x86Thread{a: a, ctx: free[0], base: free[1], budget: noReg, chk: noReg,
		abandon: a.newLabel(), bodyEnd: a.newLabel(), abandonPop: a.newLabel(), drop: a.newLabel(), dropPop: a.newLabel()}
	free = free[2:]
	t.budgetMem = spec.loops && spec.budgetInMemory
	if spec.loops && !spec.budgetInMemory {
		t.budget, free = free[0], free[1:]
	}
	if spec.check {
		t.chk = free[0]
	}
	ctx := func(off int64) xop { return xM(t.ctx, off) }
	R := func(r xreg) xop { return xR(r, 8) }

	a.mov(8, R(t.ctx), R(rDI))
	top, done, next := a.newLabel(), a.newLabel(), a.newLabel()
	a.bind(top)
	a.mov(8, R(rAX), ctx(ctxI))
	a.alu("cmp", 8, R(rAX), ctx(ctxN))
	a.jcc("ae", done)

	switch o.Sync {
	case SyncSpin:
		// rdx = iter0 + i + 1: "I have reached instance i".
		a.mov(8, R(rDX), R(rAX))
		a.alu("add", 8, R(rDX), ctx(ctxIter0))
		a.unary("inc", 8, R(rDX))
		a.mov(8, R(rCX), ctx(ctxMySlot))
		a.mov(8, xM(rCX, 0), R(rDX))
		for j := 0; j < nthreads; j++ {
			if j == me {
				continue
			}
			again, wait, ok := a.newLabel(), a.newLabel(), a.newLabel()
			a.bind(again)
			a.mov(8, R(rCX), ctx(ctxSlots))
			a.mov(8, xR(r11, 8), ctx(ctxSpin))
			a.bind(wait)
			a.alu("cmp", 8, xM(rCX, int64(j*slotStride)), R(rDX))
			a.jcc("ae", ok)
			a.pause()
			a.unary("dec", 8, xR(r11, 8))
			a.jcc("ne", wait)
			a.mov(4, xR(rAX, 4), xI(sysSchedYieldAMD64))
			a.syscall()
			// Give up the batch after ctx.waitMax ticks on this wait: the
			// partner is not coming (its goroutine was stopped before it
			// entered its code), or not for a long time.
			check, resume := a.newLabel(), a.newLabel()
			a.rdtsc()
			a.shift("shl", 8, R(rDX), xI(32))
			a.alu("or", 8, R(rAX), R(rDX))
			a.mov(8, R(rDX), ctx(ctxI))
			a.alu("add", 8, R(rDX), ctx(ctxIter0))
			a.unary("inc", 8, R(rDX))
			a.alu("cmp", 8, R(rDX), ctx(ctxWaitFor))
			a.jcc("e", check)
			a.mov(8, ctx(ctxWaitFor), R(rDX))
			a.alu("add", 8, R(rAX), ctx(ctxWaitMax))
			a.mov(8, ctx(ctxWaitEnd), R(rAX))
			a.jmp(resume)
			a.bind(check)
			a.alu("cmp", 8, R(rAX), ctx(ctxWaitEnd))
			a.jcc("ae", done)
			a.bind(resume)
			a.jmp(again)
			a.bind(ok)
		}
	case SyncTimebase:
		// rcx = tb0 + i*period; spin until the TSC passes it.
		a.mov(8, R(rCX), R(rAX))
		a.imul(8, R(rCX), ctx(ctxTBPeriod))
		a.alu("add", 8, R(rCX), ctx(ctxTB0))
		wait := a.newLabel()
		a.bind(wait)
		a.rdtsc()
		a.shift("shl", 8, R(rDX), xI(32))
		a.alu("or", 8, R(rAX), R(rDX))
		a.alu("cmp", 8, R(rAX), R(rCX))
		a.jcc("b", wait)
	}
	if o.MaxDelay > 0 {
		skip, loop := a.newLabel(), a.newLabel()
		a.mov(8, R(rAX), ctx(ctxI))
		a.mov(8, R(rCX), ctx(ctxDelays))
		a.mov(4, xR(rCX, 4), xMI(rCX, rAX, 4, 0))
		a.test(4, xR(rCX, 4), xR(rCX, 4))
		a.jcc("e", skip)
		a.bind(loop)
		a.unary("dec", 4, xR(rCX, 4))
		a.jcc("ne", loop)
		a.bind(skip)
	}
	a.mov(8, R(rAX), ctx(ctxI))
	a.mov(8, R(rCX), ctx(ctxBases))
	a.mov(8, R(t.base), xMI(rCX, rAX, 8, 0))
	switch {
	case t.budgetMem:
		a.mov(8, R(rAX), ctx(ctxBudget))
		a.mov(8, ctx(ctxLeft), R(rAX))
	case spec.loops:
		a.mov(8, R(t.budget), ctx(ctxBudget))
	}
	for _, in := range spec.inits {
		t.loadValue(in.reg, in.val, p)
	}
	if err := body(t); err != nil {
		return nil, err
	}

	// Results: slot k holds observed register k, the last slot the status.
	nres := len(spec.obs) + 1
	scratch := noReg
	for _, r := range []xreg{rAX, rCX, rDX, r11, rSI, rDI, rBX, r8, r9, r10, r12, r13, r15} {
		if r == t.ctx || r == t.base || r == t.budget || r == t.chk {
			continue
		}
		isObs := false
		for _, o := range spec.obs {
			isObs = isObs || o == r
		}
		if !isObs {
			scratch = r
			break
		}
	}
	if scratch == noReg {
		return nil, fmt.Errorf("not supported by run: every register is observed, none is left to store them")
	}
	resultsAddr := func(s xreg) {
		a.mov(8, R(s), ctx(ctxI))
		a.imul3(8, R(s), R(s), int64(nres*8))
		a.alu("add", 8, R(s), ctx(ctxResults))
	}
	a.bind(t.bodyEnd)
	resultsAddr(scratch)
	for k, r := range spec.obs {
		a.mov(8, xM(scratch, int64(k*8)), R(r))
	}
	a.mov(8, xM(scratch, int64((nres-1)*8)), xI(0))
	a.bind(next)
	a.unary("inc", 8, ctx(ctxI))
	a.jmp(top)
	for _, st := range []struct {
		usedPop bool
		pop, l  int
		status  int64
	}{{t.usedAbandonPop, t.abandonPop, t.abandon, statusAbandoned}, {t.usedDropPop, t.dropPop, t.drop, statusDropped}} {
		if st.usedPop {
			a.bind(st.pop)
			a.popfq()
		}
		a.bind(st.l)
		resultsAddr(rAX)
		a.mov(8, xM(rAX, int64((nres-1)*8)), xI(st.status))
		a.jmp(next)
	}
	a.bind(done)
	a.ret()
	return a.finish()
}

// addrOf returns the memory operand of element elem of v in the current
// instance.
func (t *x86Thread) addrOf(v *variable, elem int, disp int64) xop {
	return xM(t.base, v.off+int64(elem*v.elem)+disp)
}

// loadValue sets register r to val: an integer, or an address in the
// current instance.
func (t *x86Thread) loadValue(r xreg, val value, p *program) {
	if val.sym != "" {
		v, i, ok := p.elemOf(val.sym)
		if !ok {
			t.a.fail("unknown location %s", val.sym)
			return
		}
		t.a.lea(8, xR(r, 8), t.addrOf(v, i, 0))
		return
	}
	if val.v == 0 {
		t.a.alu("xor", 4, xR(r, 4), xR(r, 4))
		return
	}
	t.a.mov(8, xR(r, 8), xI(val.v))
}

// loopCheck counts one back edge: when the budget runs out the instance is
// abandoned. keepFlags saves the flags around the count, for a conditional
// branch of an X86 test whose flags are still live.
func (t *x86Thread) loopCheck(keepFlags bool) {
	if t.budgetMem {
		// C code only: the flags are not live at a back edge.
		t.a.unary("dec", 8, xM(t.ctx, ctxLeft))
		t.a.jcc("e", t.abandon)
		return
	}
	if t.budget == noReg {
		t.a.fail("internal error: a back edge in a thread without a loop budget")
		return
	}
	if keepFlags {
		t.a.pushfq()
		t.a.unary("dec", 8, xR(t.budget, 8))
		t.a.jcc("e", t.abandonPop)
		t.a.popfq()
		t.usedAbandonPop = true
		return
	}
	t.a.unary("dec", 8, xR(t.budget, 8))
	t.a.jcc("e", t.abandon)
}

// checkReg drops the instance unless register r holds an address in the
// instances' memory (room for an 8-byte access). The flags are clobbered.
func (t *x86Thread) checkReg(r xreg) {
	t.a.alu("cmp", 8, xR(r, 8), xM(t.ctx, ctxArenaLo))
	t.a.jcc("b", t.drop)
	t.a.alu("cmp", 8, xR(r, 8), xM(t.ctx, ctxArenaHi))
	t.a.jcc("ae", t.drop)
}

// checkMem drops the instance unless memory operand m, which uses the
// test's registers, is in the instances' memory. The flags are kept (an
// X86 test's flags may be live across the access).
func (t *x86Thread) checkMem(m xop) {
	if t.chk == noReg {
		t.a.fail("internal error: no register to check an address with")
		return
	}
	t.a.pushfq()
	t.a.lea(8, xR(t.chk, 8), m)
	t.a.alu("cmp", 8, xR(t.chk, 8), xM(t.ctx, ctxArenaLo))
	t.a.jcc("b", t.dropPop)
	t.a.alu("cmp", 8, xR(t.chk, 8), xM(t.ctx, ctxArenaHi))
	t.a.jcc("ae", t.dropPop)
	t.a.popfq()
	t.usedDropPop = true
}

// Instance status words.
const (
	statusOK        = 0
	statusAbandoned = 1 // Options.LoopBound back edges
	statusDropped   = 2 // an access outside the instance
)

// x86TwoOps are the two-operand instructions encoded from their size and
// operands alone.
var x86TwoOps = map[string]func(a *x86asm, size int, x, y xop){
	"xadd": (*x86asm).xadd, "cmpxchg": (*x86asm).cmpxchg, "test": (*x86asm).test,
	"lea": (*x86asm).lea, "imul": (*x86asm).imul,
}

// x86insn encodes one instruction given by mnemonic (lower case, with an
// AT&T size suffix or not), its operands in Intel order (destination
// first), the operand size (0: from a register operand, else defSize) and
// a branch target label. It serves the X86 litmus dialects and the kmap
// rows.
func x86insn(a *x86asm, lock bool, m string, size, defSize int, ops []xop, target int) error {
	base, sfx := splitSuffix(m)
	if sfx != 0 {
		size = sfx
	}
	if size == 0 {
		for _, o := range ops {
			if o.kind == xoReg {
				size = o.size
				break
			}
		}
	}
	if size == 0 {
		size = defSize
	}
	need := func(n int) error {
		if len(ops) != n {
			return fmt.Errorf("%s takes %d operands, found %d", m, n, len(ops))
		}
		return nil
	}
	if lock {
		switch base {
		case "add", "sub", "and", "or", "xor", "adc", "sbb", "inc", "dec", "neg", "not", "xadd", "cmpxchg", "xchg", "bts", "btr", "btc":
			if len(ops) == 0 || ops[0].kind != xoMem {
				return fmt.Errorf("lock %s needs a memory destination", base)
			}
			a.lock()
		default:
			return fmt.Errorf("lock cannot prefix %s", base)
		}
	}
	switch base {
	case "nop", "nopl", "nopw", "prefetch", "prefetcht0":
		a.nop()
	case "endbr64":
		a.emit(0xF3, 0x0F, 0x1E, 0xFA)
	case "pause":
		a.pause()
	case "mfence":
		a.mfence()
	case "lfence":
		a.lfence()
	case "sfence":
		a.sfence()
	case "clflush", "clflushopt":
		if err := need(1); err != nil {
			return err
		}
		if ops[0].kind != xoMem {
			return fmt.Errorf("%s needs a memory operand", base)
		}
		a.clflush(base == "clflushopt", ops[0])
	case "mov", "movabs":
		if err := need(2); err != nil {
			return err
		}
		if ops[0].kind == xoMem && ops[1].kind == xoMem {
			return fmt.Errorf("mov cannot move memory to memory")
		}
		a.mov(size, ops[0], ops[1])
	case "movnti":
		if err := need(2); err != nil {
			return err
		}
		if ops[0].kind != xoMem || ops[1].kind != xoReg || size < 4 {
			return fmt.Errorf("movnti needs a memory destination and a 32- or 64-bit register source")
		}
		a.op(size, []byte{0x0F, 0xC3}, ops[1].reg, &ops[1], ops[0])
	case "movzbq", "movzbl", "movzwq", "movzwl", "movsbq", "movsbl", "movswq", "movswl", "movslq":
		if err := need(2); err != nil {
			return err
		}
		src := map[byte]int{'b': 1, 'w': 2, 'l': 4}[m[4]]
		dst := map[byte]int{'w': 2, 'l': 4, 'q': 8}[m[5]]
		a.movx(m[3] == 's', dst, ops[0], src, ops[1])
	case "xchg", "uxch":
		if err := need(2); err != nil {
			return err
		}
		mem, reg := ops[0], ops[1]
		if reg.kind == xoMem {
			mem, reg = reg, mem
		}
		a.xchg(size, mem, reg)
	case "xadd", "cmpxchg", "test", "lea", "imul":
		if err := need(2); err != nil {
			return err
		}
		x86TwoOps[base](a, size, ops[0], ops[1])
	case "add", "sub", "and", "or", "xor", "adc", "sbb", "cmp":
		if err := need(2); err != nil {
			return err
		}
		if ops[0].kind == xoMem && ops[1].kind == xoMem {
			return fmt.Errorf("%s cannot take two memory operands", base)
		}
		a.alu(base, size, ops[0], ops[1])
	case "inc", "dec", "neg", "not":
		if err := need(1); err != nil {
			return err
		}
		a.unary(base, size, ops[0])
	case "shl", "sal", "shr", "sar":
		if len(ops) == 1 {
			ops = append(ops, xI(1))
		}
		if err := need(2); err != nil {
			return err
		}
		a.shift(base, size, ops[0], ops[1])
	case "bt", "bts", "btr", "btc":
		if err := need(2); err != nil {
			return err
		}
		a.bitop(base, size, ops[0], ops[1])
	case "jmp", "jmpq":
		a.jmp(target)
	default:
		switch {
		case strings.HasPrefix(m, "set"):
			if err := need(1); err != nil {
				return err
			}
			o := ops[0]
			if o.kind == xoReg {
				o.size = 1
			}
			a.setcc(m[3:], o)
		case strings.HasPrefix(m, "cmov"):
			if err := need(2); err != nil {
				return err
			}
			a.cmovcc(m[4:], size, ops[0], ops[1])
		case strings.HasPrefix(m, "j") && xcond[m[1:]] != 0 || m == "jo":
			a.jcc(m[1:], target)
		default:
			return fmt.Errorf("unsupported instruction %s", m)
		}
	}
	return a.err
}

// suffixed are the mnemonics that take an AT&T size suffix.
var suffixed = map[string]bool{
	"mov": true, "xchg": true, "uxch": true, "add": true, "sub": true, "and": true, "or": true, "xor": true,
	"adc": true, "sbb": true, "inc": true, "dec": true, "cmp": true, "test": true, "xadd": true, "cmpxchg": true,
	"movnti": true, "shl": true, "shr": true, "sal": true, "sar": true, "neg": true, "not": true, "lea": true,
	"bt": true, "bts": true, "btr": true, "btc": true, "imul": true, "nop": true,
}

// splitSuffix splits an AT&T size suffix off m: "movq" is ("mov", 8).
func splitSuffix(m string) (string, int) {
	if len(m) > 2 && suffixed[m[:len(m)-1]] {
		switch m[len(m)-1] {
		case 'b':
			return m[:len(m)-1], 1
		case 'w':
			return m[:len(m)-1], 2
		case 'l':
			return m[:len(m)-1], 4
		case 'q':
			return m[:len(m)-1], 8
		}
	}
	return m, 0
}
