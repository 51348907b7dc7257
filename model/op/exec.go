package op

import (
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// memModel is what distinguishes SC, TSO and PSO: where a store goes, where
// a load reads from, when the buffers are empty, and which buffered stores
// may reach memory next. Every method that changes state is called on the
// successor state, never on the state being expanded.
type memModel interface {
	Model() Machine
	// read returns the value of location loc as thread t sees it.
	read(s *mstate, t, loc int) (val, report.Source)
	// write performs thread t's store; rel marks a release store.
	write(s *mstate, t, loc int, v val, rel bool)
	// storeFence orders thread t's earlier stores before its later ones.
	storeFence(s *mstate, t int)
	// quiet reports whether thread t has no buffered stores.
	quiet(s *mstate, t int) bool
	// drains appends the drain actions enabled in s.
	drains(s *mstate, out []action) []action
	// drain performs drain action a and returns the location and value
	// that reached memory.
	drain(s *mstate, a action) (loc int, v val)
}

// action is one step of a machine: thread t executes its next
// instruction, or one of thread t's buffered stores to location loc
// reaches memory.
type action uint32

const actDrain action = 1 << 31

func execAct(t int) action       { return action(t) }
func drainAct(t, loc int) action { return actDrain | action(loc)<<8 | action(t) }
func (a action) isDrain() bool   { return a&actDrain != 0 }
func (a action) thread() int     { return int(a & 0xff) }
func (a action) loc() int        { return int(a&^actDrain) >> 8 }
func (a action) String() string {
	if a.isDrain() {
		return fmt.Sprintf("drain(P%d,%d)", a.thread(), a.loc())
	}
	return fmt.Sprintf("P%d", a.thread())
}

// machine runs a compiled program on a memory model.
type machine struct {
	p  *program
	mm memModel
}

// initial returns the initial state.
func (m *machine) initial() *mstate {
	// Memory has one ghost cell per RCU domain after the real locations:
	// the target of the ghost store that ends a critical section.
	s := &mstate{mem: make([]val, len(m.p.locs)+len(m.p.domains)), th: make([]tstate, len(m.p.threads))}
	for i, l := range m.p.locs {
		s.mem[i] = l.init
	}
	for i, t := range m.p.threads {
		s.th[i].regs = append([]val(nil), t.init...)
		s.th[i].rcu = make([]uint8, len(m.p.domains))
	}
	return s
}

// blank returns a state of the right shape, for decode.
func (m *machine) blank() *mstate {
	s := m.initial()
	return s
}

// done reports whether thread t has finished.
func (m *machine) done(s *mstate, t int) bool { return s.th[t].pc >= len(m.p.threads[t].code) }

// final reports whether every thread has finished and every buffer has
// drained.
func (m *machine) final(s *mstate) bool {
	for t := range s.th {
		if !m.done(s, t) || len(s.th[t].buf) > 0 {
			return false
		}
	}
	return true
}

// canExec reports whether thread t's next instruction is enabled.
func (m *machine) canExec(s *mstate, t int) bool {
	code := m.p.threads[t].code
	pc := s.th[t].pc
	if pc >= len(code) {
		return false
	}
	in := &code[pc]
	if m.badAccess(s, t, in) {
		return false
	}
	switch in.op {
	case opFence:
		return in.fence != fenceFull || m.mm.quiet(s, t)
	case opRMW, opTryLock, opGPStart:
		return m.mm.quiet(s, t)
	case opRCUUnlock:
		// srcu_up_read of a section another thread began: a full
		// barrier first (srcu.go).
		return in.dom == 0 || int8(s.th[t].rcu[in.dom]) > 0 || m.mm.quiet(s, t)
	case opLock:
		if !m.mm.quiet(s, t) {
			return false
		}
		l, err := m.resolve(s, t, in)
		return err != nil || s.mem[l] == 0 // an evaluation error surfaces in apply
	case opGPWait:
		return s.th[t].wait == 0
	}
	return true
}

// enabled appends every enabled action of s.
func (m *machine) enabled(s *mstate, out []action) []action {
	for t := range s.th {
		if m.canExec(s, t) {
			out = append(out, execAct(t))
		}
	}
	return m.mm.drains(s, out)
}

// effect describes one step, for traces.
type effect struct {
	loc      int // -1 when no memory location was involved
	read     val
	from     report.Source
	wrote    val
	hasWrite bool
	note     string
}

// runtimeError is a meaning error found while running: a bad address.
type runtimeError struct {
	pos litmus.Pos
	msg string
}

func (e *runtimeError) Error() string { return e.msg }

func (m *machine) resolve(s *mstate, t int, in *instr) (int, error) {
	a, err := eval(in.addr, s.th[t].regs)
	if err != nil {
		return 0, &runtimeError{in.pos, err.Error()}
	}
	l, ok := m.p.locAt(a)
	if !ok {
		return 0, &runtimeError{in.pos, fmt.Sprintf("P%d: %s: access to %s, which is not the address of a shared location", m.p.threads[t].id, in.text, m.p.format(a))}
	}
	return l, nil
}

// badAccess reports whether thread t's next instruction in accesses memory
// at a value that is not the address of a location (a NULL pointer, say).
// Such an instruction never executes: the thread waits there forever, so
// no final state lies beyond it, and check reports the dead end as a
// dropped execution rather than as a stuck one. This is how herd7
// releases before October 2025 treat a load from a non-address (the
// candidate execution finds no write to read from and disappears); herd7
// since then (herdtools7 pull requests 1513 and 1520) stops the whole test
// with "Non-symbolic memory access found" when an execution the model
// allows makes such an access. Dropping keeps the other executions, and
// Result.Dropped says that it happened (docs/semantics.md).
func (m *machine) badAccess(s *mstate, t int, in *instr) bool {
	if in.addr == nil {
		return false
	}
	if in.addr.kind == exConst {
		return in.badStatic
	}
	a, err := eval(in.addr, s.th[t].regs)
	if err != nil {
		return false // apply reports the error
	}
	_, ok := m.p.locAt(a)
	return !ok
}

// apply sets out to the successor of s by action a. It never changes s;
// out must not share storage with s. When eff is not nil it is filled in
// for traces.
func (m *machine) apply(s *mstate, a action, out *mstate, eff *effect) error {
	copyState(out, s)
	if eff != nil {
		*eff = effect{loc: -1}
	}
	if a.isDrain() {
		l, v := m.mm.drain(out, a)
		if l >= len(m.p.locs) {
			m.rcuEnd(out, a.thread(), l-len(m.p.locs))
			if eff != nil {
				eff.note = "end of the read-side critical section reaches memory"
			}
			return nil
		}
		if eff != nil {
			eff.loc, eff.wrote, eff.hasWrite = l, v, true
		}
		return nil
	}
	t := a.thread()
	th := &out.th[t]
	in := &m.p.threads[t].code[th.pc]
	th.pc++
	switch in.op {
	case opNop, opFence:
		if in.op == opFence && in.fence == fenceStore {
			m.mm.storeFence(out, t)
		}
	case opAssign:
		v, err := eval(in.a, th.regs)
		if err != nil {
			return &runtimeError{in.pos, err.Error()}
		}
		m.p.threads[t].set(th.regs, in.dst, v)
	case opBranch:
		v, err := eval(in.a, th.regs)
		if err != nil {
			return &runtimeError{in.pos, err.Error()}
		}
		if v != 0 {
			th.pc = in.target
		}
	case opJump:
		th.pc = in.target
	case opLoad:
		l, err := m.resolve(out, t, in)
		if err != nil {
			return err
		}
		v, src := m.mm.read(out, t, l)
		r := v
		switch in.ret {
		case retBit:
			nr, err := eval(in.a, th.regs)
			if err != nil {
				return &runtimeError{in.pos, err.Error()}
			}
			r = (v >> uint(nr&63)) & 1
		case retNonZero:
			r = b2v(v != 0)
		}
		if in.dst >= 0 {
			m.p.threads[t].set(th.regs, in.dst, r)
		}
		if eff != nil {
			eff.loc, eff.read, eff.from = l, v, src
		}
	case opStore, opUnlock:
		l, err := m.resolve(out, t, in)
		if err != nil {
			return err
		}
		var v val
		if in.op == opStore {
			if v, err = eval(in.a, th.regs); err != nil {
				return &runtimeError{in.pos, err.Error()}
			}
			v = m.p.stored(l, v)
		}
		m.mm.write(out, t, l, v, in.rel)
		if eff != nil {
			eff.loc, eff.wrote, eff.hasWrite = l, v, true
		}
	case opRMW:
		return m.rmw(out, t, in, eff)
	case opLock, opTryLock:
		l, err := m.resolve(out, t, in)
		if err != nil {
			return err
		}
		old := out.mem[l]
		if old == 0 {
			out.mem[l] = 1
		}
		if in.dst >= 0 {
			m.p.threads[t].set(th.regs, in.dst, b2v(old == 0))
		}
		if eff != nil {
			eff.loc, eff.read, eff.from = l, old, report.FromMemory
			if old == 0 {
				eff.wrote, eff.hasWrite = 1, true
			} else {
				eff.note = "lock held: trylock fails"
			}
		}
	case opRCULock:
		if in.dom > 0 && m.srcuPayDebt(out, in.dom, eff) {
			break
		}
		th.rcu[in.dom]++
		th.active |= 1 << uint(in.dom)
	case opRCUUnlock:
		if int8(th.rcu[in.dom]) <= 0 {
			if in.dom > 0 {
				return m.srcuUnlockOther(out, t, in, eff)
			}
			return &runtimeError{in.pos, fmt.Sprintf("P%d: %s outside a read-side critical section", m.p.threads[t].id, in.text)}
		}
		if in.dom > 0 {
			if ok, err := m.srcuIndexOK(out, t, in, eff); err != nil || !ok {
				return err
			}
		}
		th.rcu[in.dom]--
		if th.rcu[in.dom] > 0 {
			break
		}
		// The critical section ends for grace periods only once every
		// store made in it is visible: the unlock is a ghost release
		// store that ends the section when it reaches memory. This is
		// the grace-period guarantee (the quiescent state that ends a
		// grace period implies a full barrier on the reader's CPU,
		// Documentation/RCU/Design/Requirements/Requirements.rst).
		if m.mm.quiet(out, t) {
			m.rcuEnd(out, t, in.dom)
		} else {
			m.mm.write(out, t, len(m.p.locs)+in.dom, 0, true)
		}
	case opGPStart:
		var w uint64
		for u := range out.th {
			if out.th[u].active&(1<<uint(in.dom)) != 0 {
				w |= 1 << uint(u)
			}
		}
		th.wait = w
		if eff != nil && w != 0 {
			eff.note = "grace period starts, waiting for" + m.threadList(w)
		}
	case opGPWait:
		if eff != nil {
			eff.note = "grace period ends"
		}
	default:
		panic("model: unknown opcode " + in.op.String())
	}
	return nil
}

// rcuEnd ends thread t's read-side critical section of domain dom for
// grace periods: no grace period waits for it any more.
func (m *machine) rcuEnd(s *mstate, t, dom int) {
	if s.th[t].rcu[dom] == 0 {
		s.th[t].active &^= 1 << uint(dom)
	}
	for u := range s.th {
		code := m.p.threads[u].code
		if pc := s.th[u].pc; pc < len(code) && code[pc].op == opGPWait && code[pc].dom == dom {
			s.th[u].wait &^= 1 << uint(t)
		}
	}
}

func (m *machine) threadList(w uint64) string {
	s := ""
	for u := range m.p.threads {
		if w&(1<<uint(u)) != 0 {
			s += fmt.Sprintf(" P%d", m.p.threads[u].id)
		}
	}
	return s
}

// rmw runs an atomic read-modify-write on memory. The caller has checked
// that the thread's buffers are empty (a LOCK'd instruction drains them).
func (m *machine) rmw(out *mstate, t int, in *instr, eff *effect) error {
	th := &out.th[t]
	l, err := m.resolve(out, t, in)
	if err != nil {
		return err
	}
	opnd, err := eval(in.a, th.regs)
	if err != nil {
		return &runtimeError{in.pos, err.Error()}
	}
	var b val
	if in.b != nil {
		if b, err = eval(in.b, th.regs); err != nil {
			return &runtimeError{in.pos, err.Error()}
		}
	}
	old := out.mem[l]
	nv, write := old, true
	switch in.rmw {
	case litmus.RMWAdd:
		nv = old + opnd
	case litmus.RMWSub:
		nv = old - opnd
	case litmus.RMWAnd:
		nv = old & opnd
	case litmus.RMWOr:
		nv = old | opnd
	case litmus.RMWXor:
		nv = old ^ opnd
	case litmus.RMWAndNot:
		nv = old &^ opnd
	case litmus.RMWXchg:
		nv = opnd
	case litmus.RMWCmpxchg: // a = expected, b = new
		nv, write = b, old == m.p.stored(l, opnd)
	case litmus.RMWAddUnless: // a = addend, b = limit
		nv, write = old+opnd, old != m.p.stored(l, b)
	default:
		panic("model: unknown RMW op")
	}
	if write {
		nv = m.p.stored(l, nv)
		out.mem[l] = nv
	} else {
		nv = old
	}
	if in.dst >= 0 {
		var r val
		switch in.ret {
		case retValue:
			r = old
		case retNew:
			r = nv
		case retNewIsZero:
			r = b2v(nv == 0)
		case retNewIsNeg:
			r = b2v(nv < 0)
		case retOldBit:
			r = b2v(old&opnd != 0)
		case retSuccess:
			r = b2v(write)
		}
		m.p.threads[t].set(th.regs, in.dst, r)
	}
	if eff != nil {
		eff.loc, eff.read, eff.from = l, old, report.FromMemory
		if write {
			eff.wrote, eff.hasWrite = nv, true
		} else {
			eff.note = "no write (condition failed)"
		}
	}
	return nil
}

func b2v(b bool) val {
	if b {
		return 1
	}
	return 0
}

// eval evaluates a register expression.
func eval(e *expr, regs []val) (val, error) {
	switch e.kind {
	case exConst:
		return e.v, nil
	case exReg:
		return regs[e.reg], nil
	case exUnary:
		x, err := eval(e.x, regs)
		if err != nil {
			return 0, err
		}
		switch e.op {
		case "-":
			return -x, nil
		case "!":
			return b2v(x == 0), nil
		case "~":
			return ^x, nil
		}
	case exBinary:
		x, err := eval(e.x, regs)
		if err != nil {
			return 0, err
		}
		switch e.op { // short-circuit operators first
		case "&&":
			if x == 0 {
				return 0, nil
			}
		case "||":
			if x != 0 {
				return 1, nil
			}
		}
		y, err := eval(e.y, regs)
		if err != nil {
			return 0, err
		}
		return binop(e.op, x, y)
	case exOffset:
		a, err := eval(e.x, regs)
		if err != nil {
			return 0, err
		}
		n, err := eval(e.y, regs)
		if err != nil {
			return 0, err
		}
		return e.objs.offset(a, n), nil
	case exCond:
		c, err := eval(e.x, regs)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return eval(e.y, regs)
		}
		return eval(e.z, regs)
	}
	return 0, fmt.Errorf("cannot evaluate operator %q", e.op)
}

func binop(op string, x, y val) (val, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/", "%":
		if y == 0 {
			return 0, fmt.Errorf("division by zero")
		}
		if op == "/" {
			return x / y, nil
		}
		return x % y, nil
	case "&":
		return x & y, nil
	case "|":
		return x | y, nil
	case "^":
		return x ^ y, nil
	case "<<":
		return x << uint(y&63), nil
	case ">>":
		return x >> uint(y&63), nil
	case "==":
		return b2v(x == y), nil
	case "!=":
		return b2v(x != y), nil
	case "<":
		return b2v(x < y), nil
	case "<=":
		return b2v(x <= y), nil
	case ">":
		return b2v(x > y), nil
	case ">=":
		return b2v(x >= y), nil
	case "&&", "||":
		return b2v(y != 0), nil
	}
	return 0, fmt.Errorf("unknown operator %q", op)
}
