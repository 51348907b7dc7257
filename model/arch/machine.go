// Package arch gives assembly litmus tests (AArch64, RISC-V, POWER, x86)
// their events, as herd7's per-architecture semantics do: each thread's
// code runs with concrete values, every read is a choice point over the
// values its location may hold, and each instruction emits its reads,
// writes, fences and branches with the tags the architecture's models
// name (A, L, DMB.ISH, ...) and the dependencies that reach it through
// registers. The result is a model/axiom program that any cat model of
// the architecture can check.
//
// One file per architecture holds its instructions' meaning; this file
// is the machine they share: registers with the reads their values
// depend on, control flow, loop unrolling, and the odometer that
// enumerates the choices of a thread.
package arch

import (
	"fmt"
	"github.com/litmus-dev/litmus/internal/limit"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/internal/x86asm"
)

// Options steer the construction of a program.
type Options struct {
	// LoopBound is how many times a backward branch may be taken on one
	// path; a path that would take it again is cut, as herd's -unroll
	// does. Zero means 2, herd's default.
	LoopBound int
	// Mixed gives the test herd's mixed-size meaning (-variant mixed):
	// memory in granules, accesses of several sizes. Program without it
	// finds out that a test needs it (a location accessed with two sizes
	// or at an offset) only when the threads run: Check then fails with
	// a MixedError, and the caller builds the program again with Mixed.
	Mixed bool
	// Budget, when not nil, bounds the time and memory of the walks of
	// the threads (and of whatever else the caller polls it in).
	Budget *limit.Budget
	// OneEventAMO shapes a RISC-V AMO as herd7 does for a model read
	// from files: a cat model sees it as one event, read and write
	// (axiom.Program.OneEventAMO); the built-in riscv.cat is written for
	// its two events.
	OneEventAMO bool
}

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

// program is an assembly test being made ready.
type program struct {
	test  *litmus.Test
	sem   semantics
	names []string
	index map[string]int
	opt   Options
	sizes map[int]int // the access size of each location seen so far, in bytes
	mixed *mixedInfo  // the granule layout of a mixed-size program, or nil
	// arrays gives, for each location that is an element of an array
	// (t[2] in "int64_t t[4]"), its array.
	arrays map[int]arrayElem
}

// arrayElem places a location in its array: the array's name, the
// element's number, the number of elements and their size in bytes.
type arrayElem struct {
	name       string
	i, n, size int
}

// Program returns the assembly test t as an axiom program.
func Program(t *litmus.Test, opt Options) (*axiom.Program, error) {
	mk := archs[t.Arch]
	if mk == nil {
		return nil, fmt.Errorf("%s: no semantics for %s tests", t.Name, t.Arch)
	}
	if opt.LoopBound <= 0 {
		opt.LoopBound = 2
	}
	p := &program{test: t, sem: mk(), index: map[string]int{}, opt: opt, sizes: map[int]int{}, arrays: map[int]arrayElem{}}
	ap := &axiom.Program{Test: t, Vocab: p.sem.vocab(), InstrPO: true, Budget: opt.Budget, OneEventAMO: opt.OneEventAMO && t.Arch == litmus.ArchRISCV, RegName: func(n string) string {
		if c := p.sem.canon(n); c != "" {
			return c
		}
		return n
	}}
	ap.RegLess = func(a, b string) bool { return regLess(ap.RegName(a), ap.RegName(b)) }
	if err := p.locations(); err != nil {
		return nil, err
	}
	_, keep64 := p.sem.(uncast)
	if !keep64 {
		ap.Cast = p.caster(ap)
		ap.Unsigned = p.unsigned(ap)
	}
	_, asWritten := p.sem.(regsAsWritten)
	if asWritten {
		ap.RegName, ap.RegLess = nil, nil
	}
	// The initial values, by location name, then the registers'.
	init := map[string]axiom.Val{}
	regInit := map[int]map[string]axiom.Val{}
	var errs litmus.ErrorList
	for _, it := range t.Init {
		if it.Proc < 0 && it.Len > 0 {
			p.arrayInit(it, init, &errs)
			continue
		}
		v := axiom.Int(0)
		if it.Value != nil {
			var err error
			if v, err = p.constVal(it.Value); err != nil {
				errs.Add(t.File.Position(it.Pos()), err.Error())
				continue
			}
		}
		if it.Proc < 0 && strings.HasPrefix(it.Name, "%") {
			// A symbolic register (herd's %x0=x): the register of the
			// thread whose code names it.
			for _, pr := range t.Procs {
				if usesReg(pr, it.Name) {
					if regInit[pr.ID] == nil {
						regInit[pr.ID] = map[string]axiom.Val{}
					}
					regInit[pr.ID][it.Name] = v
				}
			}
			continue
		}
		if it.Proc < 0 {
			// herd stores an initial value in memory cut to the size
			// of the location's type, zero-extended (eventsMonad.ml,
			// initwrites_non_mixed): x=-1 is 0xffffffff in an int.
			if !keep64 && !v.IsAddr() {
				v = axiom.Int(maskTo(it.Type, v.N))
			}
			init[it.Name] = v
			continue
		}
		reg := p.sem.canon(it.Name)
		if reg == "" {
			errs.Add(t.File.Position(it.Pos()), fmt.Sprintf("%s is not a %s register", it.Name, t.Arch))
			continue
		}
		if regInit[it.Proc] == nil {
			regInit[it.Proc] = map[string]axiom.Val{}
		}
		regInit[it.Proc][reg] = v
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if opt.Mixed {
		if len(p.arrays) > 0 {
			return nil, p.errorf(t.Pos(), "an array in a mixed-size test: not supported (each cell of an array is a location of its own)")
		}
		if err := p.layoutMixed(ap, init); err != nil {
			return nil, err
		}
		// Addresses are those of the symbols' first granules.
		reloc := func(v axiom.Val) axiom.Val {
			if v.IsAddr() {
				a, _ := p.mixed.addrOf(p.names[v.Loc()])
				a.N = v.N
				return a
			}
			return v
		}
		for l, v := range ap.Init {
			ap.Init[l] = reloc(v)
		}
		for _, regs := range regInit {
			for k, v := range regs {
				regs[k] = reloc(v)
			}
		}
	} else {
		ap.Names, ap.Index = p.names, p.index
		ap.Init = make([]axiom.Val, len(p.names))
		for n, v := range init {
			ap.Init[p.index[n]] = v
		}
	}
	for _, pr := range t.Procs {
		th := &thread{p: p, proc: pr, regs: regInit[pr.ID], labels: map[string]int{endLabel: len(pr.Code)}}
		for i, in := range pr.Code {
			if in.Label != "" {
				th.labels[in.Label] = i
			}
		}
		if asWritten {
			th.written = p.writtenRegs(pr.ID)
		}
		ap.Threads = append(ap.Threads, th)
	}
	sort.Slice(ap.Threads, func(i, j int) bool { return ap.Threads[i].ID() < ap.Threads[j].ID() })
	return ap, nil
}

// locations collects the shared locations: those of the init section,
// the names used there as values (0:X1=x holds the address of x), and
// the shared locations of the final section.
func (p *program) locations() error {
	t := p.test
	seen := map[string]bool{}
	for _, it := range t.Init {
		if it.Proc < 0 && it.Len > 0 {
			seen[it.Name] = true // its elements are the locations
		}
	}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			p.names = append(p.names, n)
		}
	}
	for _, it := range t.Init {
		if it.Proc < 0 && it.Len > 0 {
			for i := 0; i < it.Len; i++ {
				add(fmt.Sprintf("%s[%d]", it.Name, i))
			}
		} else if it.Proc < 0 && !strings.HasPrefix(it.Name, "%") {
			add(it.Name)
		}
		if id, ok := it.Value.(*litmus.Ident); ok {
			add(id.Name)
		}
	}
	atom := func(a *litmus.AtomProp) {
		if a.Loc.Proc < 0 {
			add(a.Loc.Name)
		}
		if a.Val.Loc != nil && a.Val.Loc.Proc < 0 {
			add(a.Val.Loc.Name)
		}
		if !a.Val.IsInt && a.Val.Loc == nil && a.Val.Sym != "" {
			add(a.Val.Sym)
		}
	}
	for _, l := range t.Locations {
		if l.Proc < 0 {
			add(l.Name)
		}
	}
	if t.Cond != nil {
		axiom.EachAtom(t.Cond.Prop, atom)
	}
	if t.Filter != nil {
		axiom.EachAtom(t.Filter, atom)
	}
	for _, pr := range t.Procs {
		for _, in := range pr.Code {
			for _, a := range in.Args {
				if a.Kind == litmus.OpdSym || (a.Kind == litmus.OpdMem && a.Sym != "") {
					add(a.Sym)
				}
			}
		}
	}
	sort.Strings(p.names)
	for i, n := range p.names {
		p.index[n] = i
	}
	// An array's name stands for the address of its first element; the
	// elements are laid out one after the other, by their C size.
	for _, it := range t.Init {
		if it.Proc >= 0 || it.Len <= 0 {
			continue
		}
		if _, ok := p.index[it.Name]; !ok {
			p.index[it.Name] = p.index[it.Name+"[0]"]
		}
		size := x86asm.TypeSize(it.Type)
		for i := 0; i < it.Len; i++ {
			p.arrays[p.index[fmt.Sprintf("%s[%d]", it.Name, i)]] = arrayElem{name: it.Name, i: i, n: it.Len, size: size}
		}
	}
	return nil
}

// arrayInit sets the initial values of an array's elements from its
// {v0, v1, ...} initializer.
func (p *program) arrayInit(it *litmus.InitItem, init map[string]axiom.Val, errs *litmus.ErrorList) {
	if it.Value == nil {
		return
	}
	bl, ok := it.Value.(*litmus.BraceList)
	if !ok {
		errs.Add(p.test.File.Position(it.Pos()), fmt.Sprintf("array %s needs a {...} initializer", it.Name))
		return
	}
	if len(bl.Elems) > it.Len {
		errs.Add(p.test.File.Position(bl.Pos()), fmt.Sprintf("too many initializers for %s[%d]", it.Name, it.Len))
		return
	}
	for i, e := range bl.Elems {
		v, err := p.constVal(e)
		if err != nil {
			errs.Add(p.test.File.Position(e.Pos()), err.Error())
			continue
		}
		init[fmt.Sprintf("%s[%d]", it.Name, i)] = v
	}
}

// writtenRegs returns, for thread proc, the registers that the final
// section names, each with the canonical name the machine keeps it under.
func (p *program) writtenRegs(proc int) map[string]string {
	out := map[string]string{}
	ref := func(l *litmus.LocRef) {
		if l != nil && l.Proc == proc {
			if c := p.sem.canon(l.Name); c != "" {
				out[l.Name] = c
			}
		}
	}
	atom := func(a *litmus.AtomProp) {
		ref(a.Loc)
		ref(a.Val.Loc)
	}
	for _, l := range p.test.Locations {
		ref(l)
	}
	if p.test.Cond != nil {
		axiom.EachAtom(p.test.Cond.Prop, atom)
	}
	if p.test.Filter != nil {
		axiom.EachAtom(p.test.Filter, atom)
	}
	return out
}

// usesReg reports whether the code of pr names register name.
func usesReg(pr *litmus.Proc, name string) bool {
	for _, in := range pr.Code {
		for _, a := range in.Args {
			if a.R != nil && a.R.Name == name {
				return true
			}
			if a.Kind == litmus.OpdMem && (a.Mem.Base.Name == name || a.Mem.Index != nil && a.Mem.Index.Name == name) {
				return true
			}
		}
	}
	return false
}

// constVal evaluates an init value: an integer or a location's name.
func (p *program) constVal(e litmus.Expr) (axiom.Val, error) {
	switch e := e.(type) {
	case *litmus.IntLit:
		return axiom.Int(e.Value), nil
	case *litmus.Ident:
		if i, ok := p.index[e.Name]; ok {
			return axiom.Addr(i), nil
		}
		return axiom.Val{}, fmt.Errorf("unknown location %s", e.Name)
	case *litmus.UnaryExpr:
		if e.Op == "-" {
			if v, err := p.constVal(e.X); err == nil && !v.IsAddr() {
				return axiom.Int(-v.N), nil
			}
		}
		if e.Op == "&" {
			return p.constVal(e.X)
		}
	case *litmus.ParenExpr:
		return p.constVal(e.X)
	}
	return axiom.Val{}, fmt.Errorf("unsupported initial value")
}

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
	m := &machine{th: th, dom: dom}
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
		// Advance the odometer: the last choice point with an untried
		// alternative moves on, later ones start again.
		i := len(m.counts) - 1
		for i >= 0 && m.choices[i]+1 >= m.counts[i] {
			i--
		}
		if i < 0 {
			return out, cut, nil
		}
		m.choices = m.choices[:i+1]
		m.choices[i]++
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

	choices []int // the choice made at each choice point so far
	counts  []int // the number of alternatives at each choice point
	pos     int

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
}

func (m *machine) stopped() bool { return m.dead || m.cut || m.err != nil }

// run executes the thread once, following the current choices.
func (m *machine) run() {
	m.pos = 0
	m.counts = m.counts[:0]
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
	m.dead, m.cut = false, false
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
	if m.pos == len(m.choices) {
		m.choices = append(m.choices, 0)
	}
	c := m.choices[m.pos]
	m.counts = append(m.counts, n)
	m.pos++
	return c
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

func (p *program) errorf(pos litmus.Pos, format string, args ...any) error {
	var position litmus.Position
	if p.test.File != nil {
		position = p.test.File.Position(pos)
	}
	return &litmus.Error{Pos: position, Msg: fmt.Sprintf(format, args...)}
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
		m.dead = true
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
			m.dead = true
			return 0, false
		}
		return m.th.p.index[fmt.Sprintf("%s[%d]", el.name, off/int64(el.size))], true
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

// regLess orders register names as herd does: by their letters, then by
// their number (X4 before X10).
func regLess(a, b string) bool {
	pa, na := splitReg(a)
	pb, nb := splitReg(b)
	if pa != pb {
		return pa < pb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func splitReg(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	if i == len(s) {
		n = -1
	}
	return s[:i], n
}

// caster returns the conversion of final values to their declared types:
// herd prints (and compares) each value cast to the type its location or
// register has in the init section, int (signed 32 bits) when none.
func (p *program) caster(ap *axiom.Program) func(th int, name string, v axiom.Val) axiom.Val {
	t := p.typer(ap)
	return func(th int, name string, v axiom.Val) axiom.Val {
		if v.IsAddr() {
			return v
		}
		return axiom.Int(castTo(t(th, name), v.N))
	}
}

// unsigned returns whether a register or location prints unsigned in
// 64 bits: herd prints a value of a 64-bit unsigned type (uint64_t,
// uintptr_t) as such (archExtra_herd.ml, pp_typed).
func (p *program) unsigned(ap *axiom.Program) func(th int, name string) bool {
	t := p.typer(ap)
	return func(th int, name string) bool {
		switch strings.TrimSpace(t(th, name)) {
		case "uint64_t", "uintptr_t", "pteval_t":
			return true
		}
		return false
	}
}

// typer returns the declared type of a register (th >= 0) or location.
func (p *program) typer(ap *axiom.Program) func(th int, name string) string {
	locType := map[string]string{}
	regType := map[int]map[string]string{}
	for _, it := range p.test.Init {
		if it.Type == "" {
			continue
		}
		if it.Proc < 0 {
			locType[it.Name] = it.Type
			continue
		}
		ti := -1
		for i, pr := range sortedProcs(p.test) {
			if pr.ID == it.Proc {
				ti = i
			}
		}
		if regType[ti] == nil {
			regType[ti] = map[string]string{}
		}
		regType[ti][ap.RegName(it.Name)] = it.Type
	}
	return func(th int, name string) string {
		if th >= 0 {
			return regType[th][name]
		}
		return locType[name]
	}
}

// castTo converts x to C type t ("" is int).
func castTo(t string, x int64) int64 {
	switch strings.TrimSpace(t) {
	case "", "int", "int32_t", "signed", "signed int", "long":
		// herd's long is 32 bits (lib/testType.ml, size_of).
		return int64(int32(x))
	case "uint32_t", "unsigned", "unsigned int":
		return int64(uint32(x))
	case "int8_t", "char", "signed char":
		return int64(int8(x))
	case "uint8_t", "unsigned char":
		return int64(uint8(x))
	case "int16_t", "short", "signed short":
		return int64(int16(x))
	case "uint16_t", "unsigned short":
		return int64(uint16(x))
	}
	// 64-bit types (int64_t, uint64_t, intptr_t, pointers); herd prints
	// the unsigned ones unsigned (program.unsigned).
	return x
}

// maskTo keeps the bytes of x that C type t holds ("" is int),
// zero-extended, as herd does for the initial values of memory.
func maskTo(t string, x int64) int64 {
	switch strings.TrimSpace(t) {
	case "", "int", "int32_t", "signed", "signed int", "uint32_t", "unsigned", "unsigned int", "long":
		return int64(uint32(x))
	case "int8_t", "char", "signed char", "uint8_t", "unsigned char":
		return int64(uint8(x))
	case "int16_t", "short", "signed short", "uint16_t", "unsigned short":
		return int64(uint16(x))
	}
	return x
}

func sortedProcs(t *litmus.Test) []*litmus.Proc {
	ps := append([]*litmus.Proc(nil), t.Procs...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	return ps
}
