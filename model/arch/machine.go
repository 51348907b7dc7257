// Package arch gives assembly litmus tests (AArch64, RISC-V, POWER, x86)
// their events, as herd7's per-architecture semantics do: each thread's
// code runs with concrete values, every read is a choice point over the
// values its location may hold, and each instruction emits its reads,
// writes, fences and branches with the tags the architecture's models
// name (A, L, DMB.ISH, ...) and the dependencies that reach it through
// registers. The result is a model/axiom program that any cat model of
// the architecture can check.
//
// One file per architecture holds its instructions' meaning (AArch64's
// in three: aarch64.go its registers, operands and conditions,
// aarch64_mem.go its memory accesses, aarch64_data.go its arithmetic);
// this file is the machine they share: registers with the reads their
// values depend on, control flow, loop unrolling, and the odometer that
// enumerates the choices of a thread. program.go makes a test ready (its
// locations, initial values, observed registers), ctypes.go holds the C
// types of the init section, mixed.go the mixed-size layout.
package arch

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// semantics is one architecture's meaning of its instructions.
type semantics interface {
	// vocab lists every tag the architecture's events may carry.
	vocab() []string
	// canon returns the name under which a register is kept ("W0" and
	// "X0" are both "X0"), or "" when name is not a register.
	canon(name string) string
	// exec executes one instruction on m. It returns the label to jump
	// to when the instruction branches (endLabel to end the thread),
	// else "".
	exec(m *machine, in *litmus.Instr) string
}

// endLabel is the label past a thread's last instruction: jumping there
// ends the thread (x86's RET). No label of a test can have this name.
const endLabel = "\x00end"

// regsAsWritten is implemented by a semantics whose final states name a
// register as the test writes it (herd prints X86's 1:EAX as written),
// although the machine keeps every alias under canon's name.
type regsAsWritten interface{ regsAsWritten() }

// uncast is implemented by a semantics whose final values keep their 64
// bits whatever the declared types (the operational x86 machines'
// convention), where herd casts them.
type uncast interface{ uncast() }

var archs = map[litmus.Arch]func() semantics{}

// Supported reports whether tests of dialect a have a semantics here.
func Supported(a litmus.Arch) bool { return archs[a] != nil }

// thread is one assembly thread.
type thread struct {
	p      *program
	proc   *litmus.Proc
	regs   map[string]axiom.Val // initial registers, by canonical name
	labels map[string]int       // label -> index in proc.Code
	// written maps the registers the final section names as written to
	// their canonical names, when the semantics is regsAsWritten.
	written map[string]string
}

func (th *thread) ID() int { return th.proc.ID }

// Walk enumerates the paths of the thread, as axiom.Thread says.
func (th *thread) Walk(dom [][]axiom.Val, partial bool) ([]axiom.Trace, bool, error) {
	m := &machine{th: th, dom: dom, partial: partial}
	var out []axiom.Trace
	cut := false
	for n := 0; ; n++ {
		if n&63 == 0 {
			if err := th.p.opt.Budget.Err(); err != nil {
				return nil, false, err
			}
		}
		m.run()
		if m.err != nil {
			return nil, false, m.err
		}
		if m.cut {
			cut = true
		}
		switch {
		case partial && (m.cut || m.dead):
			out = append(out, axiom.Trace{Events: m.events})
		case !m.cut && !m.dead:
			regs := make(map[string]axiom.Val, len(m.regs))
			for k, r := range m.regs {
				regs[k] = r.v
			}
			for name, c := range th.written {
				regs[name] = m.regs[c].v
			}
			out = append(out, axiom.Trace{Events: m.events, Regs: regs})
		}
		if len(out) > maxPaths {
			return nil, false, &axiom.LimitError{Msg: fmt.Sprintf("P%d has more than %d paths", th.ID(), maxPaths)}
		}
		if !m.odo.Next() {
			return out, cut, nil
		}
	}
}

// maxPaths bounds the paths of one thread.
const maxPaths = 1 << 20

// reg is a register's value and the reads it depends on: t through
// data flow (herd's dtrm), p also through comparisons and selections
// (herd's pick-dtrm, AArch64 only: p is a superset of t there), and
// whether the value is known before any read (herd's statically known
// values, which decide whether a loop's branch counts towards the unroll
// bound).
type reg struct {
	v     axiom.Val
	t     axiom.Taint
	p     axiom.Taint
	known bool
}

// machine runs one path of one thread.
type machine struct {
	th  *thread
	dom [][]axiom.Val

	odo axiom.Odometer // the choices of the path being walked

	regs   map[string]reg
	events []axiom.Event
	ctrl   axiom.Taint // reads the branches taken so far depend on
	pctrl  axiom.Taint // the same through pick dependencies (AArch64)
	// lastW is, per location, what flowed into the thread's last write
	// of it: a later read of the location depends on it too (herd's lrs
	// in AArch64's dtrm).
	lastW map[int]memTaint
	first int  // index of the first event of the current instruction
	count bool // the current instruction's branch counts towards the loop bound
	instr int  // number of the instruction being executed
	pc    int
	in    *litmus.Instr
	loops map[int]int // backward jumps taken, by target instruction index
	state any         // architecture-specific state of the path
	size  int         // the access size of the instruction being executed, in bytes (0: unknown)
	nacc  int         // the number of the last access (mixed-size)

	dead bool  // the path is infeasible (a read with no value, a fault)
	cut  bool  // a loop ran past the bound
	err  error // the code is not supported
	// halted ends a complete path early: at a fault, under
	// Options.FaultEnds (fault.go).
	halted  bool
	partial bool // the walk is a partial one (axiom.Thread's Walk)
}

func (m *machine) stopped() bool { return m.dead || m.cut || m.halted || m.err != nil }

// run executes the thread once, following the current choices.
func (m *machine) run() {
	m.odo.Start()
	m.events = nil
	m.regs = map[string]reg{}
	for k, v := range m.th.regs {
		m.regs[k] = reg{v: v, known: true}
	}
	m.ctrl, m.pctrl = nil, nil
	m.lastW = map[int]memTaint{}
	m.instr = 0
	m.nacc = 0
	m.loops = map[int]int{}
	m.state = nil
	m.dead, m.cut, m.halted = false, false, false
	code := m.th.proc.Code
	for m.pc = 0; m.pc < len(code) && !m.stopped(); {
		in := code[m.pc]
		if in.Op == "" {
			m.pc++
			continue
		}
		m.in = in
		m.size = 0
		m.first = len(m.events)
		m.count = true
		target := m.th.p.sem.exec(m, in)
		m.instr++
		if m.stopped() {
			return
		}
		if target == "" {
			m.pc++
			continue
		}
		to, ok := m.th.labels[target]
		if !ok {
			m.fail(in.Pos(), "undefined label %s", target)
			return
		}
		if to <= m.pc && m.count {
			// herd counts the backward jumps to each target on a path,
			// when the branch's condition is not known in advance.
			m.loops[to]++
			if m.loops[to] > m.th.p.opt.LoopBound {
				m.cut = true
				return
			}
		}
		m.pc = to
	}
}

// choose returns the alternative taken at the next choice point among n.
func (m *machine) choose(n int) int {
	if n == 0 {
		m.dead = true
		return -1
	}
	return m.odo.Choose(n)
}

// failMixed stops the walk: the test is a mixed-size test, to be given
// that meaning instead.
func (m *machine) failMixed(format string, args ...any) {
	if m.err == nil {
		m.err = &MixedError{m.th.p.errorf(m.in.Pos(), format, args...)}
	}
}

// fail stops the walk with an input error at pos.
func (m *machine) fail(pos litmus.Pos, format string, args ...any) {
	if m.err == nil {
		m.err = m.th.p.errorf(pos, format, args...)
	}
}

// get reads a register (by canonical name; a register never written
// holds 0).
func (m *machine) get(name string) reg { return m.regs[name] }

// set writes a register.
func (m *machine) set(name string, r reg) { m.regs[name] = r }

// emit appends an event of the current instruction and returns its index
// in the path.
func (m *machine) emit(e axiom.Event) int {
	e.Thread = m.th.ID()
	e.Instr = m.instr
	e.Ctrl = m.ctrl
	// Dependencies relate events of different instructions (herd's
	// "& ~same-instance").
	e.Addr, e.Data = m.outside(e.Addr), m.outside(e.Data)
	if e.Pick == nil && len(m.pctrl) > 0 {
		// herd's pick-ctrl-dep relates a read to every event po-after a
		// branch its value picks, fences (ISB) included.
		e.Pick = &axiom.PickDeps{}
	}
	if e.Pick != nil {
		e.Pick.Addr, e.Pick.Data = m.outside(e.Pick.Addr), m.outside(e.Pick.Data)
		e.Pick.Ctrl = m.pctrl
		// pick-dep: what flowed into the event, and pick-ctrl-dep.
		e.Pick.Dep = m.outside(e.Pick.Dep).Merge(m.pctrl)
	}
	e.Pos = m.in.Pos()
	if e.Text == "" {
		e.Text = instrText(m.in)
	}
	m.events = append(m.events, e)
	return len(m.events) - 1
}

// outside drops from t the events of the current instruction.
func (m *machine) outside(t axiom.Taint) axiom.Taint {
	for i, e := range t {
		if e >= m.first {
			if i == 0 {
				return nil
			}
			return t[:i:i]
		}
	}
	return t
}

// memTaint is what flowed into a write: its dtrm and pick-dtrm sources.
type memTaint struct{ d, p axiom.Taint }

// location returns the location an address designates, or marks the path
// dead when it designates none (herd drops such executions).
func (m *machine) location(a axiom.Val) (int, bool) {
	if !a.IsAddr() {
		m.fault(a)
		return 0, false
	}
	if el, ok := m.th.p.arrays[a.Loc()]; ok {
		// An element of an array: the offset moves by elements; an
		// address that falls outside the array or inside an element
		// designates no location. An access of another size than the
		// element's makes a mixed-size test.
		if m.size != 0 && m.size != el.size {
			m.failMixed("%s[%d] is accessed with %d bytes: a mixed-size test", el.name, el.i, m.size)
			return 0, false
		}
		if a.N == 0 {
			return a.Loc(), true
		}
		off := int64(el.i*el.size) + a.N
		if off < 0 || off%int64(el.size) != 0 || off/int64(el.size) >= int64(el.n) {
			m.fault(a)
			return 0, false
		}
		return m.th.p.index[fmt.Sprintf("%s[%d]", el.name, off/int64(el.size))], true
	}
	if c, ok := m.th.p.cells[a.Loc()]; ok && a.N != 0 {
		// A cell of an object moved by a.N bytes: the cell there, or no
		// location when the address leaves the object or lands between
		// its cells.
		if l, ok := m.th.p.at[objCell{c.obj, c.off + a.N}]; ok {
			return l, true
		}
		m.fault(a)
		return 0, false
	}
	if a.N != 0 {
		m.failMixed("an access at %s+%d makes this a mixed-size test", m.th.p.names[a.Loc()], a.N)
		return 0, false
	}
	return a.Loc(), true
}

// access checks that location loc is always accessed with the same
// size: a test that accesses one location with several sizes is a
// mixed-size test (herd's -variant mixed), which this semantics does not
// give a meaning to yet.
func (m *machine) access(loc, size int) bool {
	if size == 0 {
		return true
	}
	if s, ok := m.th.p.sizes[loc]; ok && s != size {
		m.failMixed("%s is accessed with %d and %d bytes: a mixed-size test", m.th.p.names[loc], s, size)
		return false
	}
	m.th.p.sizes[loc] = size
	return true
}

// load emits a read of the location at address a and returns the value
// it takes (a choice point) and the read's index, or -1.
func (m *machine) load(a reg, tags axiom.Tags) (axiom.Val, int) {
	loc, ok := m.location(a.v)
	if !ok || !m.access(loc, m.size) {
		return axiom.Val{}, -1
	}
	d := m.dom[loc]
	c := m.choose(len(d))
	if c < 0 {
		return axiom.Val{}, -1
	}
	i := m.emit(axiom.Event{Kind: axiom.KindR, Tags: tags, Loc: loc, Val: d[c], RMW: -1, Addr: a.t})
	return d[c], i
}

// store emits a write of v at address a and returns its index, or -1.
func (m *machine) store(a reg, v reg, tags axiom.Tags, rmw int) int {
	loc, ok := m.location(a.v)
	if !ok || !m.access(loc, m.size) {
		return -1
	}
	return m.emit(axiom.Event{Kind: axiom.KindW, Tags: tags, Loc: loc, Val: v.v, RMW: rmw, Addr: a.t, Data: v.t})
}

// fence emits a fence with the given tags.
func (m *machine) fence(tags axiom.Tags) {
	m.emit(axiom.Event{Kind: axiom.KindF, Tags: tags, Loc: -1, RMW: -1})
}

// branch records a conditional branch whose condition depends on t: the
// events after it depend on it (ctrl).
func (m *machine) branch(t axiom.Taint, tags axiom.Tags) {
	m.emit(axiom.Event{Kind: axiom.KindB, Tags: tags, Loc: -1, RMW: -1})
	m.ctrl = m.ctrl.Merge(t)
}

// pbranch is branch for AArch64: the pick taint p of the condition
// reaches the later events as pick-ctrl-dep.
func (m *machine) pbranch(r reg, tags axiom.Tags) {
	m.emit(axiom.Event{Kind: axiom.KindB, Tags: tags, Loc: -1, RMW: -1, Pick: &axiom.PickDeps{}})
	m.ctrl = m.ctrl.Merge(r.t)
	m.pctrl = m.pctrl.Merge(r.p)
}

// instrText prints an instruction for explanations.
func instrText(in *litmus.Instr) string {
	var args []string
	for _, a := range in.Args {
		args = append(args, a.Text)
	}
	if len(args) == 0 {
		return in.Op
	}
	return in.Op + " " + strings.Join(args, ",")
}

// tagSet maps tag names to bits of a vocabulary.
type tagSet map[string]axiom.Tags

func newTagSet(vocab []string) tagSet {
	t := tagSet{}
	for i, v := range vocab {
		t[v] = 1 << uint(i)
	}
	return t
}

// of returns the tags named.
func (t tagSet) of(names ...string) axiom.Tags {
	var out axiom.Tags
	for _, n := range names {
		b, ok := t[n]
		if !ok {
			panic("arch: no tag " + n)
		}
		out |= b
	}
	return out
}

// addVal returns address v moved by off bytes.
func addVal(v axiom.Val, off int64) axiom.Val {
	v.N += off
	return v
}

// addrAdd returns a + b where one of them is an address: the address
// moved by the other, an integer. ok is false for two addresses, which
// herd gives no value (the path is dropped).
func addrAdd(a, b axiom.Val) (v axiom.Val, ok bool) {
	switch {
	case a.IsAddr() && !b.IsAddr():
		return addVal(a, b.N), true
	case b.IsAddr() && !a.IsAddr():
		return addVal(b, a.N), true
	}
	return axiom.Val{}, false
}

// addrSub returns a - b where one of them is an address: an address
// moved back by an integer, or the distance between two addresses of one
// symbol. ok is false otherwise (an integer minus an address, two
// symbols), which herd gives no value.
func addrSub(a, b axiom.Val) (v axiom.Val, ok bool) {
	switch {
	case a.IsAddr() && !b.IsAddr():
		return addVal(a, -b.N), true
	case a.IsAddr() && b.IsAddr() && a.Sym == b.Sym:
		return axiom.Int(a.N - b.N), true
	}
	return axiom.Val{}, false
}
