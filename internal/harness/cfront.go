package harness

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cir"
)

// C threads are compiled by model/cir, the front end model/kcomp shares,
// to a small list of operations on numbered register slots; this file
// turns its result into the code generators' form, where an address
// operand names the variable of this program's layout.

type cOpcode uint8

const (
	cPrim    cOpcode = iota + 1 // dst = prim(addr, args...)
	cMov                        // dst = x
	cUnary                      // dst = alu x   ("-", "!", "~")
	cBinary                     // dst = x alu y
	cBranchZ                    // if x == 0 goto target
	cJump                       // goto target (back: a loop's back edge)
	cLabel                      // label
)

type cOpdKind uint8

const (
	cSlot  cOpdKind = iota + 1 // a register slot
	cConst                     // an integer
	cAddr                      // the address of a variable's element in this instance
)

// cOperand is a value operand.
type cOperand struct {
	kind cOpdKind
	slot int
	val  int64
	v    *variable
	elem int
}

// cInstr is one operation.
type cInstr struct {
	op     cOpcode
	prim   string // kmap row name
	dst    int    // slot, or -1
	addr   cOperand
	args   []cOperand // {v}, {w} in the primitive table's order
	nr     *cOperand  // bitops: the bit number ({nr}); mask is 1<<nr ({mask})
	mask   *cOperand
	x, y   cOperand
	alu    string
	target int
	label  int
	back   bool // cJump: a loop's back edge (counts toward --loop-bound)
	pos    litmus.Pos
	text   string
}

// cThread is a compiled C thread.
type cThread struct {
	code   []cInstr
	nslots int            // register slots used (named registers first)
	regs   map[string]int // named register -> slot
	names  []string       // named register slot -> name
	loops  bool
	labels int
}

// cEnv is the test around a thread, as model/cir asks for it.
type cEnv struct{ p *program }

func (e cEnv) Shared(name string) bool { _, ok := e.p.byName[name]; return ok }

func (e cEnv) Location(name string) (int, int, bool) {
	v, i, ok := e.p.elemOf(name)
	if !ok {
		return 0, 0, false
	}
	for k, w := range e.p.vars {
		if w == v {
			return k, i, true
		}
	}
	return 0, 0, false
}

func (e cEnv) Primitive(name string) (*litmus.Primitive, bool) { return litmus.Lookup(name) }

func (e cEnv) Errorf(pos litmus.Pos, format string, args ...any) error {
	return e.p.errorf(pos, format, args...)
}

func (e cEnv) Unsupported(pos litmus.Pos, format string, args ...any) error {
	return e.p.unsupported(pos, format, args...)
}

// compileC compiles thread pr.
func (p *program) compileC(pr *litmus.Proc) (*cThread, error) {
	t, err := cir.Compile(cEnv{p}, pr)
	if err != nil {
		return nil, err
	}
	ct := &cThread{nslots: t.NSlots, regs: t.Regs, names: t.Names, loops: t.Loops, labels: t.Labels}
	opd := func(o cir.Operand) cOperand {
		c := cOperand{kind: cOpdKind(o.Kind), slot: o.Slot, val: o.Val, elem: o.Elem}
		if o.Kind == cir.Addr {
			c.v = p.vars[o.Var]
		}
		return c
	}
	for _, in := range t.Code {
		c := cInstr{op: cOpcode(in.Op), prim: in.Prim, dst: in.Dst, addr: opd(in.Addr), x: opd(in.X), y: opd(in.Y),
			alu: in.ALU, target: in.Target, label: in.Label, back: in.Back, pos: in.Pos, text: in.Text}
		for _, a := range in.Args {
			c.args = append(c.args, opd(a))
		}
		if in.Nr != nil {
			nr, mask := opd(*in.Nr), opd(*in.Mask)
			c.nr, c.mask = &nr, &mask
		}
		ct.code = append(ct.code, c)
	}
	return ct, nil
}
