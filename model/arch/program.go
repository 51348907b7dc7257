package arch

import (
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
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
	// FaultEnds ends a path at an access whose address designates no
	// location (NULL, an integer, an address that left its object),
	// with register FaultReg holding the site's number (FaultSites),
	// instead of dropping it as herd does: a C test with objects checks
	// with it whether an execution the model allows makes such an
	// access (model/kcomp's FaultTest).
	FaultEnds bool
}

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
	// cells places the locations of the test's objects (litmus.Object):
	// each one's object and byte offset, and back (objects).
	cells map[int]objCell
	at    map[objCell]int
	// faults are the accesses that designated no location (fault.go).
	faults faultLog
}

type objCell struct{ obj, off int64 }

// objects fills the object table from the test's objects; a cell that is
// no location is an error at the object.
func (p *program) objects() error {
	p.cells, p.at = map[int]objCell{}, map[objCell]int{}
	for i, o := range p.test.Objects {
		for _, c := range o.Cells {
			l, ok := p.index[c.Loc]
			if !ok {
				return p.errorf(o.Pos(), "object %s: %s is not a location of the init block", o.Name, c.Loc)
			}
			if _, dup := p.cells[l]; dup {
				return p.errorf(o.Pos(), "object %s: %s is a cell of two objects", o.Name, c.Loc)
			}
			if _, arr := p.arrays[l]; arr {
				return p.errorf(o.Pos(), "object %s: %s is an element of an array", o.Name, c.Loc)
			}
			p.cells[l] = objCell{int64(i), int64(c.Off)}
			p.at[objCell{int64(i), int64(c.Off)}] = l
		}
	}
	return nil
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
	// The canonical names of the registers the final conditions and the
	// locations section name, computed once: the condition is evaluated
	// for every candidate execution, and parsing a register name each
	// time was a tenth of the time of an SB ring. The map is read-only
	// once built (checks of one program may run in parallel).
	canon := map[string]string{}
	addCanon := func(n string) {
		if _, ok := canon[n]; !ok {
			if c := p.sem.canon(n); c != "" {
				canon[n] = c
			} else {
				canon[n] = n
			}
		}
	}
	for _, pr := range t.FinalProps() {
		litmus.EachAtom(pr, func(a *litmus.AtomProp) {
			if a.Loc.Proc >= 0 {
				addCanon(a.Loc.Name)
			}
		})
	}
	for _, l := range t.Locations {
		if l.Proc >= 0 {
			addCanon(l.Name)
		}
	}
	ap := &axiom.Program{Test: t, Vocab: p.sem.vocab(), InstrPO: true, Budget: opt.Budget, OneEventAMO: opt.OneEventAMO && t.Arch == litmus.ArchRISCV, RegName: func(n string) string {
		if c, ok := canon[n]; ok {
			return c
		}
		if c := p.sem.canon(n); c != "" {
			return c
		}
		return n
	}}
	ap.RegLess = func(a, b string) bool { return regLess(ap.RegName(a), ap.RegName(b)) }
	if err := p.locations(); err != nil {
		return nil, err
	}
	if err := p.objects(); err != nil {
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
				if i&4095 == 4095 {
					// A large array is many locations: poll the budget.
					if err := p.opt.Budget.Err(); err != nil {
						return err
					}
				}
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
		litmus.EachAtom(t.Cond.Prop, atom)
	}
	if t.Filter != nil {
		litmus.EachAtom(t.Filter, atom)
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
		size := litmus.TypeSize(it.Type, litmus.LP64)
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
		litmus.EachAtom(p.test.Cond.Prop, atom)
	}
	if p.test.Filter != nil {
		litmus.EachAtom(p.test.Filter, atom)
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

func (p *program) errorf(pos litmus.Pos, format string, args ...any) error {
	var position litmus.Position
	if p.test.File != nil {
		position = p.test.File.Position(pos)
	}
	return &litmus.Error{Pos: position, Msg: fmt.Sprintf(format, args...)}
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

func sortedProcs(t *litmus.Test) []*litmus.Proc {
	ps := append([]*litmus.Proc(nil), t.Procs...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	return ps
}
