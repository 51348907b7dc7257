package harness

import (
	"fmt"
	"github.com/litmus-dev/litmus/model/ctype"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// program is a test compiled for one architecture: each thread's code and
// what the run loop needs to set up instances and read them back.
type program struct {
	test    *litmus.Test
	arch    string // kmap architecture name: "x86-64", "arm64", "arm64-llsc"
	vars    []*variable
	byName  map[string]*variable
	threads []*threadProg
	cols    []column // observed columns, herd's order; hidden ones (filter only) last
	visible int      // len of the printed prefix of cols
	layout  layout
	// cells places the cells of the test's objects (litmus.Object) in
	// the variables that hold them; scale is the factor from an object's
	// byte offsets to the words of its variable (objects.go).
	cells map[string]cellRef
	scale int64
}

// threadProg is one thread's machine code and its result slots.
type threadProg struct {
	id   int    // the N of PN
	code []byte // the whole thread function
	nres int    // result words per instance: observed registers, then the status word
}

// variable is one shared variable of the test: a scalar or an array, laid
// out contiguously in each instance.
type variable struct {
	name  string
	elem  int // element size in bytes
	n     int // elements; 1 for a scalar
	array bool
	init  []value // per element
	off   int64   // offset from the instance base (set by layout)
	width int     // bytes read back; a value narrower than 8 is sign-extended
	// maxAccess is the widest access of an X86 test's code (0: none).
	maxAccess int
	// names are, for the variable of an object, its elements' location
	// names ("" for a word between cells).
	names []string
}

func (v *variable) size() int { return v.elem * v.n }

// elemName is the model's name of element i: "x" or "t[1]".
func (v *variable) elemName(i int) string {
	if v.names != nil {
		if v.names[i] != "" {
			return v.names[i]
		}
		return fmt.Sprintf("%s+%d", v.name, i*v.elem)
	}
	if !v.array {
		return v.name
	}
	return fmt.Sprintf("%s[%d]", v.name, i)
}

// value is an initial or observed value: an integer, or the address of an
// element of a variable (in the same instance).
type value struct {
	v   int64
	sym string // "" for an integer; else the element name ("x", "t[1]")
}

func (v value) String() string {
	if v.sym != "" {
		return v.sym
	}
	return fmt.Sprint(v.v)
}

// column is one observed location.
type column struct {
	name   string // herd's: "0:r0", "[x]", "[t[1]]"
	reg    bool
	thread int // index in program.threads (registers)
	slot   int // result slot, or -1 when the register is never written
	konst  value
	width  int // 4: the value is the low 32 bits, sign-extended
	v      *variable
	elem   int
	// regTxt and proc sort registers as herd does; memName sorts memory.
	regTxt  string
	proc    int
	memName string
}

// layout says where an instance's variables are.
type layout struct {
	instStep  int64 // bytes between two instances of one variable
	region    int64 // bytes of one variable's array over all instances (apart)
	arena     int64 // total bytes
	instances int
}

// doLayout assigns offsets: Apart gives every variable its own array of
// instances, Together packs an instance's variables next to each other.
func (p *program) doLayout(o Options) {
	maxSize := 8
	block := int64(0)
	for _, v := range p.vars {
		maxSize = max(maxSize, v.size())
		block = (block + 7) &^ 7
		v.off = block
		block += int64(v.size())
	}
	block = max(8, (block+7)&^7)
	stride := int64(o.Stride)
	roundUp := func(x, m int64) int64 { return (x + m - 1) / m * m }
	n := int64(o.Size)
	switch o.Layout {
	case Together:
		p.layout.instStep = roundUp(block, stride)
		p.layout.arena = roundUp(n*p.layout.instStep, 4096) + 4096
	default:
		p.layout.instStep = roundUp(int64(maxSize), stride)
		// A page and a line of padding between arrays, so that the last
		// instance of one variable does not share a line with the first
		// of the next.
		p.layout.region = roundUp(n*p.layout.instStep+64, 4096)
		for i, v := range p.vars {
			v.off = int64(i) * p.layout.region
		}
		p.layout.arena = p.layout.region*int64(max(1, len(p.vars))) + 4096
	}
	p.layout.instances = o.Size
}

// addVar declares a shared variable (once).
func (p *program) addVar(name string, elem, n int, array bool) *variable {
	if v, ok := p.byName[name]; ok {
		return v
	}
	if c, ok := p.cells[name]; ok {
		return c.v
	}
	v := &variable{name: name, elem: elem, n: n, array: array, init: make([]value, n), width: 8}
	p.vars = append(p.vars, v)
	p.byName[name] = v
	return v
}

// elemOf resolves an element name ("x", "t[1]", or "t" for t[0]).
func (p *program) elemOf(name string) (*variable, int, bool) {
	if v, ok := p.byName[name]; ok {
		return v, 0, true
	}
	if c, ok := p.cells[name]; ok {
		return c.v, c.i, true
	}
	base, idx, ok := strings.Cut(name, "[")
	if !ok {
		return nil, 0, false
	}
	v, ok := p.byName[base]
	var i int
	if _, err := fmt.Sscanf(idx, "%d]", &i); err != nil || !ok || i < 0 || i >= v.n {
		return nil, 0, false
	}
	return v, i, true
}

// declareVars collects the shared variables as the model does: the init
// block, the C parameters, the names the final section uses and the names
// init values take the address of. X86 front ends add the locations their
// code names.
func (p *program) declareVars(cTest bool) error {
	t := p.test
	if err := p.declareObjects(cTest); err != nil {
		return err
	}
	for _, it := range t.Init {
		if it.Proc >= 0 {
			continue
		}
		if it.Len > 0 {
			if _, ok := p.cells[it.Name]; ok {
				return p.unsupported(it.Pos(), "array %s as a cell of an object", it.Name)
			}
			p.addVar(it.Name, litmus.TypeSize(it.Type, litmus.LP64), it.Len, true)
			continue
		}
		// In C every location is one 8-byte word; X86 tests keep the
		// declared size for their address arithmetic.
		if k := ctype.Of(it.Type); cTest && k.Narrow() && k != (ctype.Kind{Bits: 32, Signed: true}) {
			// The generated code computes in 64-bit words and does
			// not convert a value stored to a narrower type (u8 0 - 1
			// would be -1, not 255), so it would not be the program
			// the models check.
			return p.unsupported(it.Pos(), "%s is %s, and the generated code keeps values in 64-bit words without converting them to it", it.Name, it.Type)
		}
		p.addVar(it.Name, 8, 1, false)
		if !cTest && it.Type != "" && litmus.TypeSize(it.Type, litmus.LP64) <= 4 {
			p.byName[it.Name].width = 4
		}
	}
	for _, pr := range t.Procs {
		for _, prm := range pr.Params {
			p.addVar(prm.Name.Name, 8, 1, false)
		}
	}
	visit := func(pr litmus.Prop) {
		litmus.EachAtom(pr, func(pr *litmus.AtomProp) {
			p.finalVar(pr.Loc)
			if pr.Val.Loc != nil {
				p.finalVar(pr.Val.Loc)
			} else if !pr.Val.IsInt {
				p.addVar(pr.Val.Sym, 8, 1, false)
			}
		})
	}
	for _, it := range t.Init {
		switch v := it.Value.(type) {
		case *litmus.Ident:
			if v.Name != "NULL" { // int *p = NULL is 0, as in the models
				p.addVar(v.Name, 8, 1, false)
			}
		case *litmus.UnaryExpr:
			if id, ok := v.X.(*litmus.Ident); ok && v.Op == "&" {
				p.addVar(id.Name, 8, 1, false)
			}
		}
	}
	for _, l := range t.Locations {
		p.finalVar(l)
	}
	if t.Filter != nil {
		visit(t.Filter)
	}
	if t.Cond != nil {
		visit(t.Cond.Prop)
	}
	return nil
}

func (p *program) finalVar(l *litmus.LocRef) {
	if l.Proc >= 0 || l.Index >= 0 {
		return
	}
	p.addVar(l.Name, 8, 1, false)
}

// initValues sets the variables' initial values, once every variable is
// declared.
func (p *program) initValues() error {
	for _, it := range p.test.Init {
		if it.Proc >= 0 || it.Value == nil {
			continue
		}
		v := p.byName[it.Name]
		if it.Len > 0 {
			bl, ok := it.Value.(*litmus.BraceList)
			if !ok {
				return p.errorf(it.Pos(), "array %s needs a {...} initializer", it.Name)
			}
			for i, e := range bl.Elems {
				if i >= v.n {
					break
				}
				iv, err := p.initValue(e)
				if err != nil {
					return err
				}
				v.init[i] = iv
			}
			continue
		}
		iv, err := p.initValue(it.Value)
		if err != nil {
			return err
		}
		if c, ok := p.cells[it.Name]; ok {
			c.v.init[c.i] = iv
			continue
		}
		v.init[0] = iv
	}
	return nil
}

// initValue evaluates an init value: an integer, an address (x, &x),
// ATOMIC_INIT(v), a negated integer.
func (p *program) initValue(e litmus.Expr) (value, error) {
	switch e := e.(type) {
	case *litmus.IntLit:
		return value{v: e.Value}, nil
	case *litmus.Ident:
		if e.Name == "NULL" {
			return value{}, nil
		}
		if v, i, ok := p.elemOf(e.Name); ok {
			return value{sym: v.elemName(i)}, nil
		}
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := e.X.(*litmus.Ident); ok {
				if v, i, ok := p.elemOf(id.Name); ok {
					return value{sym: v.elemName(i)}, nil
				}
			}
		case "-":
			if v, err := p.initValue(e.X); err == nil && v.sym == "" {
				return value{v: -v.v}, nil
			}
		}
	case *litmus.CallExpr:
		if (e.Fun.Name == "ATOMIC_INIT" || e.Fun.Name == "REFCOUNT_INIT") && len(e.Args) == 1 {
			return p.initValue(e.Args[0])
		}
	case *litmus.ParenExpr:
		return p.initValue(e.X)
	}
	return value{}, p.errorf(e.Pos(), "unsupported initial value")
}

// regInit returns the initial value of register name of thread proc from
// the init block (0 when it has none).
func (p *program) regInit(proc int, name string, same func(a, b string) bool) (value, error) {
	for _, it := range p.test.Init {
		if it.Proc == proc && same(it.Name, name) && it.Value != nil {
			return p.initValue(it.Value)
		}
	}
	return value{}, nil
}

// errorf returns a *litmus.Error at pos.
func (p *program) errorf(pos litmus.Pos, format string, args ...any) error {
	return &litmus.Error{Pos: p.test.File.Position(pos), Msg: fmt.Sprintf(format, args...)}
}

// unsupported returns the "not supported by run" error at pos.
func (p *program) unsupported(pos litmus.Pos, format string, args ...any) error {
	return &litmus.Error{Pos: p.test.File.Position(pos), Msg: "not supported by run: " + fmt.Sprintf(format, args...)}
}

// observedRefs returns the location references of the final section in
// herd's order of discovery: locations, then the condition, then the
// filter (hidden: not printed).
func (p *program) observedRefs() (visible, hidden []*litmus.LocRef) {
	var refs []*litmus.LocRef
	visit := func(pr litmus.Prop) {
		litmus.EachAtom(pr, func(pr *litmus.AtomProp) {
			refs = append(refs, pr.Loc)
			if pr.Val.Loc != nil {
				refs = append(refs, pr.Val.Loc)
			}
		})
	}
	refs = append(refs, p.test.Locations...)
	if p.test.Cond != nil {
		visit(p.test.Cond.Prop)
	}
	visible = refs
	refs = nil
	if p.test.Filter != nil {
		visit(p.test.Filter)
	}
	return visible, refs
}

// sortColumns orders columns as the model orders its observed locations:
// registers first, by thread then name, then memory by name.
func sortColumns(cols []column) {
	observed := func(c column) report.Observed {
		if c.reg {
			return report.Observed{Reg: true, Proc: c.proc, Name: c.regTxt}
		}
		return report.Observed{Name: c.memName}
	}
	sort.SliceStable(cols, func(i, j int) bool { return observed(cols[i]).Less(observed(cols[j])) })
}
