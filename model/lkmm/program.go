package lkmm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
)

// maxThreads is the most threads a test may have.
const maxThreads = 64

// program is a C litmus test made ready for the engine: its shared
// locations with their initial values, and its threads.
type program struct {
	test    *litmus.Test
	names   []string       // location names, sorted
	index   map[string]int // location name -> index
	init    []Val          // initial value of each location
	threads []*thread
	iw      []event // the initial write of each location, built once
	// cells places the locations of the test's objects (litmus.Object,
	// ptr_add): each one's object and offset, and back.
	cells map[int]objCell
	at    map[objCell]int
	// sawFault reports that a path of check faulted; faultEnds makes
	// faulting paths end rather than die, for the second check, which
	// numbers the sites in faultSites (fault.go).
	sawFault   bool
	faultEnds  bool
	faultSites []faultSite
	// conv narrows a value written to a location to its C type
	// (model/ctype.Locations); nil when no location is narrower than 64
	// bits.
	conv   []ctype.Kind
	awaits awaits // the loops checked as awaits (await.go)
}

// narrowWrite converts the integer value of write e to its location's C
// type, as the kernel's compilers store it (an int keeps 32 bits); a
// value the conversion changes is computed, no longer a copy of a read.
func (p *program) narrowWrite(e *event) {
	if p.conv == nil || e.kind != evW || e.loc < 0 || e.val.Sym != 0 {
		return
	}
	if n := p.conv[e.loc].Convert(e.val.N); n != e.val.N {
		e.val.N = n
		if e.vf != 0 {
			e.vf = vfOp
		}
	}
}

type objCell struct{ obj, off int64 }

// offset is ptr_add(a, n): the address of the location n bytes past a
// in a's object (a location in no object is one of its own). An address
// that leaves the object, or lands between its cells, is a's address
// plus n: a value, but no location's, so an access there faults
// (interp.pointer). n must be an integer; a is an address or not.
func (p *program) offset(a, n Val) Val {
	if n.IsAddr() || n.IsSymbolic() || a.IsSymbolic() {
		return Val{Sym: a.Sym, N: a.N + 1<<40} // arithmetic on two addresses: no location
	}
	if n.N == 0 {
		return a
	}
	if !a.IsAddr() || a.N != 0 {
		return Val{Sym: a.Sym, N: a.N + n.N}
	}
	if c, ok := p.cells[a.Loc()]; ok {
		if l, ok := p.at[objCell{c.obj, c.off + n.N}]; ok {
			return addrVal(l)
		}
	}
	return Val{Sym: a.Sym, N: n.N}
}

// objects fills the object table from t.Objects.
func (p *program) objects(t *litmus.Test) error {
	p.cells, p.at = map[int]objCell{}, map[objCell]int{}
	for i, o := range t.Objects {
		for _, c := range o.Cells {
			l, ok := p.index[c.Loc]
			if !ok {
				return p.errorf(o.Pos(), "object %s: %s is not a location of the init block", o.Name, c.Loc)
			}
			if _, dup := p.cells[l]; dup {
				return p.errorf(o.Pos(), "object %s: %s is a cell of two objects", o.Name, c.Loc)
			}
			p.cells[l] = objCell{int64(i), int64(c.Off)}
			p.at[objCell{int64(i), int64(c.Off)}] = l
		}
	}
	return nil
}

// thread is one process of the test.
type thread struct {
	id     int // the N of PN
	proc   *litmus.Proc
	params map[string]int // parameter name -> the location it points to
	regs   map[string]Val // initial register values from the init block
	lisa   []lisaOp       // the code of a LISA thread (lisa.go); nil for C
}

// errorf builds an error positioned at p.
func (p *program) errorf(pos litmus.Pos, format string, args ...any) error {
	var position litmus.Position
	if p.test.File != nil {
		position = p.test.File.Position(pos)
	}
	return &litmus.Error{Pos: position, Msg: fmt.Sprintf(format, args...)}
}

// newProgram collects the locations of t: the shared names of the init
// block, the parameters of the processes, and the shared names of the final
// section. As in herd, a parameter "int *x" of a process is a register
// holding the address of the shared location x.
func newProgram(t *litmus.Test) (*program, error) {
	if t.Arch != litmus.ArchC && t.Arch != litmus.ArchLISA {
		return nil, fmt.Errorf("lkmm: %s is a %s test; the LKMM engine reads C and LISA tests only", t.Name, t.Arch)
	}
	// Names were resolved before any engine ran (model.Resolve).
	p := &program{test: t, index: map[string]int{}}
	if len(t.Procs) > maxThreads {
		// The operational models' limit (a thread set is a 64-bit
		// mask there); the same here, so that no model checks a test
		// the others refuse.
		return nil, litmus.ErrorList{{Pos: t.File.Position(t.Pos()), Msg: fmt.Sprintf("%d threads; at most %d are supported", len(t.Procs), maxThreads)}}
	}
	seen := map[string]bool{}
	addName := func(n string) {
		if !seen[n] {
			seen[n] = true
			p.names = append(p.names, n)
		}
	}
	for _, it := range t.Init {
		if it.Proc < 0 {
			addName(it.Name)
		}
	}
	// A name used as an initial value ("p=y", "int *p = &y") is a
	// location too.
	for _, it := range t.Init {
		eachIdent(it.Value, func(id *litmus.Ident) {
			if id.Name != "NULL" && !strings.HasSuffix(id.Name, "_INIT") {
				addName(id.Name)
			}
		})
	}
	for _, pr := range t.Procs {
		for _, par := range pr.Params {
			addName(par.Name.Name)
		}
	}
	if t.Arch == litmus.ArchLISA {
		lisaNames(t, addName)
	}
	for _, l := range t.Locations {
		if l.Proc < 0 {
			addName(l.Name)
		}
	}
	if t.Cond != nil {
		litmus.EachAtom(t.Cond.Prop, func(a *litmus.AtomProp) {
			if a.Loc.Proc < 0 {
				addName(a.Loc.Name)
			}
			if a.Val.Loc != nil && a.Val.Loc.Proc < 0 {
				addName(a.Val.Loc.Name)
			}
			if !a.Val.IsInt && a.Val.Loc == nil && a.Val.Sym != "" {
				addName(a.Val.Sym) // "0:r1=x": the address of x
			}
		})
	}
	if t.Filter != nil {
		litmus.EachAtom(t.Filter, func(a *litmus.AtomProp) {
			if a.Loc.Proc < 0 {
				addName(a.Loc.Name)
			}
			if a.Val.Loc != nil && a.Val.Loc.Proc < 0 {
				addName(a.Val.Loc.Name)
			}
			if !a.Val.IsInt && a.Val.Loc == nil && a.Val.Sym != "" {
				addName(a.Val.Sym) // as in the condition
			}
		})
	}
	sort.Strings(p.names)
	for i, n := range p.names {
		p.index[n] = i
	}
	if err := p.objects(t); err != nil {
		return nil, err
	}
	if t.Arch == litmus.ArchC {
		if kinds := ctype.Locations(t); len(kinds) > 0 {
			p.conv = make([]ctype.Kind, len(p.names))
			for i, n := range p.names {
				if j := strings.IndexByte(n, '['); j > 0 {
					n = n[:j]
				}
				p.conv[i] = kinds[n]
			}
		}
	}
	p.init = make([]Val, len(p.names))
	regInit := map[int]map[string]Val{}
	for _, it := range t.Init {
		if it.Len > 0 {
			return nil, p.errorf(it.Pos(), "arrays are not supported by the LKMM engine")
		}
		v := intVal(0)
		if it.Value != nil {
			var err error
			v, err = p.constVal(it.Value)
			if err != nil {
				return nil, err
			}
		}
		if it.Proc >= 0 {
			if regInit[it.Proc] == nil {
				regInit[it.Proc] = map[string]Val{}
			}
			regInit[it.Proc][it.Name] = v
			continue
		}
		if i := p.index[it.Name]; i < len(p.conv) && !v.IsAddr() {
			// char x = -1 is 255 (model/ctype).
			v = intVal(p.conv[i].Convert(v.N))
		}
		p.init[p.index[it.Name]] = v
	}
	for _, pr := range t.Procs {
		th := &thread{id: pr.ID, proc: pr, params: map[string]int{}, regs: regInit[pr.ID]}
		if t.Arch == litmus.ArchLISA {
			code, err := p.lisaThread(pr)
			if err != nil {
				return nil, err
			}
			th.lisa = code
		} else if pr.Body == nil {
			return nil, p.errorf(pr.Pos(), "P%d has no C body", pr.ID)
		}
		for _, par := range pr.Params {
			th.params[par.Name.Name] = p.index[par.Name.Name]
		}
		p.threads = append(p.threads, th)
	}
	sort.Slice(p.threads, func(i, j int) bool { return p.threads[i].id < p.threads[j].id })
	return p, nil
}

// constVal evaluates an initializer: an integer, -n, the name or address
// of a location, ATOMIC_INIT(v) or a parenthesized constant.
func (p *program) constVal(e litmus.Expr) (Val, error) {
	switch e := e.(type) {
	case *litmus.IntLit:
		return intVal(e.Value), nil
	case *litmus.ParenExpr:
		return p.constVal(e.X)
	case *litmus.CastExpr:
		return p.constVal(e.X)
	case *litmus.Ident:
		if i, ok := p.index[e.Name]; ok {
			return addrVal(i), nil
		}
		if e.Name == "NULL" {
			return intVal(0), nil
		}
		return Val{}, p.errorf(e.Pos(), "unknown location %s in initializer", e.Name)
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := e.X.(*litmus.Ident); ok {
				if i, ok := p.index[id.Name]; ok {
					return addrVal(i), nil
				}
			}
		case "-":
			v, err := p.constVal(e.X)
			if err == nil && !v.IsAddr() {
				return intVal(-v.N), nil
			}
		}
	case *litmus.CallExpr:
		if strings.HasSuffix(e.Fun.Name, "_INIT") && len(e.Args) == 1 {
			return p.constVal(e.Args[0])
		}
	}
	return Val{}, p.errorf(e.Pos(), "unsupported initializer")
}

// eachIdent calls f for every identifier of an initializer that is not a
// called function's name.
func eachIdent(e litmus.Expr, f func(*litmus.Ident)) {
	switch e := e.(type) {
	case *litmus.Ident:
		f(e)
	case *litmus.ParenExpr:
		eachIdent(e.X, f)
	case *litmus.CastExpr:
		eachIdent(e.X, f)
	case *litmus.UnaryExpr:
		eachIdent(e.X, f)
	case *litmus.CallExpr:
		for _, a := range e.Args {
			eachIdent(a, f)
		}
	case *litmus.BraceList:
		for _, a := range e.Elems {
			eachIdent(a, f)
		}
	}
}
