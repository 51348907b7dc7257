package kcomp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cir"
	"github.com/litmus-dev/litmus/model/ctype"
	"github.com/litmus-dev/litmus/model/kmap"
)

// line is one instruction (or a lone label) of a compiled thread.
type line struct {
	label  string // the label defined here, or ""
	text   string // the instruction, "" for a lone label
	org    Origin
	hasOrg bool
}

// thread is a compiled thread.
type thread struct {
	id    int
	lines []line
	// regs maps the C registers to architecture registers; init gives
	// the initial value of an architecture register ("x" for the address
	// of x, or an integer).
	regs  map[string]string
	init  map[string]string
	order []string // registers of init, in the order they were set
	free  []string // registers not yet allocated
	// retry reports whether a retry of a kernel sequence ends a path here
	// (the thread sets its flag register).
	retry bool
	// types are the types the compiled test declares registers with:
	// int64_t for a C register of a 64-bit type (long, u64), as herd's
	// registers are int and a long's final value would print cut to 32
	// bits; uint32_t for an unsigned int, which would print negative.
	types map[string]string
}

func (th *thread) setType(r, t string) {
	if th.types == nil {
		th.types = map[string]string{}
	}
	th.types[r] = t
}

// reg returns the register of C register name, allocating one (with its
// initial value from the init section, or 0) for a register the thread's
// code never names.
func (th *thread) reg(c *compiler, name string) (string, bool) {
	if r, ok := th.regs[name]; ok {
		return r, true
	}
	if len(th.free) == 0 {
		return "", false
	}
	r := th.free[0]
	th.free = th.free[1:]
	th.regs[name] = r
	for _, it := range c.t.Init {
		if it.Proc == th.id && it.Name == name && it.Value != nil {
			if v, err := c.initValue(it.Value); err == nil {
				th.setInit(r, v)
			}
		}
	}
	return r, true
}

func (th *thread) setInit(r, v string) {
	if _, ok := th.init[r]; !ok {
		th.order = append(th.order, r)
	}
	th.init[r] = v
}

// cEnv is the C test around a thread, as model/cir asks for it.
type cEnv struct{ c *compiler }

func (e cEnv) Shared(name string) bool { _, ok := e.c.index[name]; return ok }

func (e cEnv) Location(name string) (int, int, bool) {
	i, ok := e.c.index[name]
	return i, 0, ok
}

func (e cEnv) Primitive(name string) (*litmus.Primitive, bool) { return e.c.t.Primitive(name) }

// Objects reports that the compiled test declares the C test's objects
// (finish writes them), for ptr_add.
func (e cEnv) Objects() bool { return true }

func (e cEnv) Errorf(pos litmus.Pos, format string, args ...any) error {
	return e.c.errorf(pos, format, args...)
}

func (e cEnv) Unsupported(pos litmus.Pos, format string, args ...any) error {
	return e.c.unsupported(pos, format, args...)
}

// emitter compiles one thread.
type emitter struct {
	c      *compiler
	be     backend
	ct     *cir.Thread
	th     *thread
	slot   []string       // cir slot -> register
	locReg map[int]string // shared variable -> register holding its address
	labels map[int]string // cir label -> name
	nrow   int            // row instances so far, for their labels' names
	cur    Origin
	curOK  bool
	// pending are labels defined before the next instruction.
	pending []string
	err     error
	// kind holds the C types of the named slots narrower than 64 bits
	// (model/ctype): an assignment's arithmetic, done in 64 bits, is
	// then sign- or zero-extended from the type's width, so that int r
	// = INT_MAX + 1 is INT_MIN as under every model.
	kind map[int]ctype.Kind
	// wide holds the named slots of 64-bit C types (long, u64).
	wide map[int]bool
}

// thread compiles thread pr.
func (c *compiler) thread(pr *litmus.Proc) (*thread, error) {
	ct, err := cir.CompileAwaits(cEnv{c}, pr, c.awaits)
	if err != nil {
		return nil, err
	}
	be := c.be
	th := &thread{id: pr.ID, regs: map[string]string{}, init: map[string]string{}, free: append([]string(nil), be.pool()...)}
	e := &emitter{c: c, be: be, ct: ct, th: th, locReg: map[int]string{}, labels: map[int]string{}}
	take := func() (string, error) {
		if len(th.free) == 0 {
			return "", c.unsupported(pr.Pos(), "P%d needs more than the %d registers %s has for a C thread", pr.ID, len(be.pool()), c.tg.Name)
		}
		r := th.free[0]
		th.free = th.free[1:]
		return r, nil
	}
	for s := 0; s < ct.NSlots; s++ {
		r, err := take()
		if err != nil {
			return nil, err
		}
		e.slot = append(e.slot, r)
	}
	decl := map[string]string{}
	litmus.Inspect(pr.Body, func(n litmus.Node) bool {
		if d, ok := n.(*litmus.DeclStmt); ok {
			if _, seen := decl[d.Name.Name]; !seen {
				decl[d.Name.Name] = d.Type
			}
		}
		return true
	})
	e.kind, e.wide = map[int]ctype.Kind{}, map[int]bool{}
	for s, name := range ct.Names {
		th.regs[name] = e.slot[s]
		if t, ok := decl[name]; ok {
			switch k := ctype.Of(t); {
			case k.Narrow():
				e.kind[s] = k
				if k == (ctype.Kind{Bits: 32}) {
					// herd prints an untyped register as an int.
					th.setType(e.slot[s], "uint32_t")
				}
			case ctype.Wide(t):
				e.wide[s] = true
				th.setType(e.slot[s], "int64_t")
			}
		}
	}
	// The registers holding the shared locations' addresses, in order of
	// first use.
	note := func(o cir.Operand) error {
		if o.Kind != cir.Addr {
			return nil
		}
		if _, ok := e.locReg[o.Var]; ok {
			return nil
		}
		r, err := take()
		if err != nil {
			return err
		}
		e.locReg[o.Var] = r
		th.setInit(r, c.vars[o.Var])
		return nil
	}
	for _, in := range ct.Code {
		ops := append([]cir.Operand{in.Addr, in.X, in.Y}, in.Args...)
		if in.Mask != nil {
			ops = append(ops, *in.Mask)
		}
		for _, o := range ops {
			if err := note(o); err != nil {
				return nil, err
			}
		}
	}
	// The C registers' initial values from the init section.
	for _, it := range c.t.Init {
		if it.Proc != pr.ID || it.Value == nil {
			continue
		}
		s, ok := ct.Regs[it.Name]
		if !ok {
			continue // allocated when the final section names it
		}
		v, err := c.initValue(it.Value)
		if err != nil {
			return nil, err
		}
		if k := e.kind[s]; k.Narrow() {
			v = narrowInit(v, k)
		}
		th.setInit(e.slot[s], v)
	}
	e.compile()
	if e.err != nil {
		return nil, e.err
	}
	return th, nil
}

// fail records the first error.
func (e *emitter) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// emit appends instructions, the first with the pending labels.
func (e *emitter) emit(texts ...string) {
	for _, t := range texts {
		e.flushLabels(1)
		l := line{text: t, org: e.cur, hasOrg: e.curOK}
		if len(e.pending) == 1 {
			l.label = e.pending[0]
			e.pending = nil
		}
		e.th.lines = append(e.th.lines, l)
		if len(e.th.lines)&1023 == 0 {
			if err := e.c.opt.Budget.Err(); err != nil {
				e.fail(err)
			}
		}
	}
}

// flushLabels emits lone labels until at most keep are pending.
func (e *emitter) flushLabels(keep int) {
	for len(e.pending) > keep {
		e.th.lines = append(e.th.lines, line{label: e.pending[0]})
		e.pending = e.pending[1:]
	}
}

func (e *emitter) label(l int) string {
	if n, ok := e.labels[l]; ok {
		return n
	}
	n := e.named(fmt.Sprintf("L%d", l))
	e.labels[l] = n
	return n
}

// named returns the label of the thread for name: herd7 wants a label
// defined once in the whole test, so every thread's labels carry its
// number ("RETRYT1", "R2_1T1", "L3T1": upper case, as the AArch64
// dialect writes its operands, and no "P1", which herd 7.58 reads as a
// thread's name).
func (e *emitter) named(name string) string {
	return fmt.Sprintf("%sT%d", name, e.th.id)
}

// compile emits the thread's code, then its retry exit.
func (e *emitter) compile() {
	code := e.ct.Code
	for i := 0; i < len(code) && e.err == nil; i++ {
		in := code[i]
		e.cur = Origin{Pos: e.c.t.File.Position(in.Pos), Text: in.Text, Prim: primOf(in)}
		if in.Ptr != nil {
			e.cur.Ptr, e.cur.PtrText = e.c.t.File.Position(in.Ptr.Pos()), litmus.ExprString(in.Ptr)
		}
		e.curOK = in.Pos.IsValid()
		// A comparison whose only use is the branch that follows is a
		// compare-and-branch, as a compiler writes it.
		if in.Op == cir.Binary && isCompare(in.ALU) && in.Dst >= len(e.ct.Names) && i+1 < len(code) {
			next := code[i+1]
			if next.Op == cir.BranchZ && next.X.Kind == cir.Slot && next.X.Slot == in.Dst {
				x, y := e.operand(in.X, 0), e.operand(in.Y, 1)
				e.cur.Text = next.Text
				e.emit(e.be.cmpBranch(negate(in.ALU), x, y, e.label(next.Target))...)
				i++
				continue
			}
		}
		e.instr(in)
	}
	th := e.th
	if th.retry {
		e.curOK = false
		e.emit(e.be.jump(e.named("END")))
		e.pending = append(e.pending, e.named("RETRY"))
		e.emit(e.be.li(e.be.flag(), 1)...)
		e.pending = append(e.pending, e.named("END"))
	}
	e.flushLabels(0)
}

func primOf(in cir.Instr) string {
	if in.Op == cir.Prim {
		return in.Prim
	}
	return ""
}

func isCompare(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// negate returns the comparison that holds when op does not.
func negate(op string) string {
	return map[string]string{"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}[op]
}

// operand returns o in a register: a slot's own, an address's location
// register, or for a constant scratch register k (0 or 1) of the C
// arithmetic, set first.
func (e *emitter) operand(o cir.Operand, k int) string {
	switch o.Kind {
	case cir.Slot:
		return e.slot[o.Slot]
	case cir.Addr:
		return e.locReg[o.Var]
	}
	r := e.be.tmp()[k]
	e.emit(e.be.li(r, o.Val)...)
	return r
}

// instr compiles one operation.
func (e *emitter) instr(in cir.Instr) {
	be := e.be
	switch in.Op {
	case cir.Label:
		e.pending = append(e.pending, e.label(in.Label))
	case cir.Jump:
		e.emit(be.jump(e.label(in.Target)))
	case cir.Spin:
		// The await's iteration failed: the thread spins forever, and
		// the path ends as a retry's does (see the package comment).
		e.emit(be.jump(e.named("RETRY")))
		e.th.retry = true
	case cir.BranchZ:
		switch in.X.Kind {
		case cir.Const:
			if in.X.Val == 0 {
				e.emit(be.jump(e.label(in.Target)))
			}
		case cir.Addr: // an address is never 0
		case cir.Slot:
			e.emit(be.branchZ(e.slot[in.X.Slot], e.label(in.Target))...)
		}
	case cir.Mov:
		d := e.slot[in.Dst]
		switch in.X.Kind {
		case cir.Const:
			e.emit(be.li(d, e.kind[in.Dst].Convert(in.X.Val))...)
		default:
			s := e.operand(in.X, 0)
			k := e.kind[in.Dst]
			switch {
			case in.X.Kind == cir.Slot && k.Narrow() && !contains(k, e.kind[in.X.Slot]):
				e.emit(be.ext(d, s, k)...)
			case s != d:
				e.emit(be.mov(d, s))
			}
		}
	case cir.Unary:
		e.emit(be.unary(in.ALU, e.slot[in.Dst], e.operand(in.X, 0))...)
		e.narrow(in.Dst)
	case cir.Binary:
		if _, isPPC := be.(ppc); isPPC && (in.ALU == "<<" || in.ALU == ">>") {
			if !e.ppcShift(in) {
				return
			}
		}
		x, y := e.operand(in.X, 0), e.operand(in.Y, 1)
		code, err := be.binary(in.ALU, e.slot[in.Dst], x, y)
		if err != nil {
			e.fail(e.c.unsupported(in.Pos, "%v", err))
			return
		}
		e.emit(code...)
		if !isCompare(in.ALU) && in.ALU != "&&" && in.ALU != "||" {
			e.narrow(in.Dst)
		}
	case cir.Prim:
		e.prim(in)
	}
}

// ppcShift compiles a shift for POWER, whose 64-bit shifts (sld, srad)
// herd's PPC lacks, and whose slw and sraw see the low word only: a left
// shift by a constant is that many doublings (adds), and a right shift is
// sraw only of a value an int holds; it reports whether the shift is
// left to the general path.
func (e *emitter) ppcShift(in cir.Instr) bool {
	// wide: x is a register of a C type wider than an int (long,
	// unsigned int) or a constant beyond an int. A temporary's or an
	// undeclared register's type is not known here (the value of READ_ONCE(*p) >>
	// 1): it is shifted as an int, as before.
	wide := false
	switch in.X.Kind {
	case cir.Slot:
		wide = e.wide[in.X.Slot] || e.kind[in.X.Slot] == ctype.Kind{Bits: 32}
	case cir.Const:
		wide = in.X.Val != int64(int32(in.X.Val))
	}
	if in.ALU == ">>" {
		if !wide {
			return true
		}
		e.fail(e.c.unsupported(in.Pos, "a right shift of a value wider than an int: herd's PPC has no srad"))
		return false
	}
	if in.Y.Kind != cir.Const || in.Y.Val < 0 || in.Y.Val > 63 {
		if !wide {
			return true // slw, then the int's conversion
		}
		e.fail(e.c.unsupported(in.Pos, "a left shift of a value wider than an int by a variable amount: herd's PPC has no sld"))
		return false
	}
	d, x := e.slot[in.Dst], e.operand(in.X, 0)
	if in.Y.Val == 0 {
		if x != d {
			e.emit(e.be.mov(d, x))
		}
	} else {
		e.emit("add " + d + "," + x + "," + x)
		for range in.Y.Val - 1 {
			e.emit("add " + d + "," + d + "," + d)
		}
	}
	e.narrow(in.Dst)
	return false
}

// narrow converts slot s to its C type when that is narrower than 64
// bits.
func (e *emitter) narrow(s int) {
	if k := e.kind[s]; k.Narrow() {
		e.emit(e.be.ext(e.slot[s], e.slot[s], k)...)
	}
}

// contains reports whether C type kind k holds every value of kind x
// (converting one to k changes nothing).
func contains(k, x ctype.Kind) bool {
	switch {
	case !k.Narrow():
		return true
	case !x.Narrow():
		return false
	case k.Signed:
		return x.Bits < k.Bits || x.Bits == k.Bits && x.Signed
	}
	return !x.Signed && x.Bits <= k.Bits
}

// narrowInit converts an initial value written as an integer to kind k.
func narrowInit(v string, k ctype.Kind) string {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return v // an address
	}
	return strconv.FormatInt(k.Convert(n), 10)
}

// prim expands a primitive from its kmap row.
func (e *emitter) prim(in cir.Instr) {
	c := e.c
	row, why, ok := kmap.Lookup(c.tg.Map, in.Prim)
	if !ok {
		e.fail(&NotCompiledError{Pos: c.t.File.Position(in.Pos), Target: c.tg.Name, Prim: in.Prim, Msg: fmt.Sprintf("%s: %s", in.Prim, why)})
		return
	}
	insns, err := kmap.Parse(row.Code)
	if err != nil {
		e.fail(fmt.Errorf("kmap %s %s: %v", c.tg.Map, in.Prim, err))
		return
	}
	args := e.be.args()
	bind := map[string]string{}
	switch in.Addr.Kind {
	case cir.Addr:
		bind["{addr}"] = e.locReg[in.Addr.Var]
	case cir.Slot:
		bind["{addr}"] = e.slot[in.Addr.Slot]
	default:
		if kmap.Uses(insns, "{addr}") {
			e.fail(c.unsupported(in.Pos, "%s on the constant address %d", in.Prim, in.Addr.Val))
			return
		}
	}
	// lk is the C type of the location accessed, when the compiler knows
	// it and it is narrower than 64 bits: a value passed to the
	// primitive is converted to it, as the kernel's macros and
	// prototypes convert it (WRITE_ONCE's volatile store of the type,
	// atomic_add's int i).
	var lk ctype.Kind
	if in.Addr.Kind == cir.Addr {
		lk = c.kinds[c.vars[in.Addr.Var]]
	}
	value := func(o cir.Operand, r string) string {
		switch o.Kind {
		case cir.Slot:
			if lk.Narrow() && !contains(lk, e.kind[o.Slot]) {
				e.emit(e.be.ext(r, e.slot[o.Slot], lk)...)
				return r
			}
			return e.slot[o.Slot]
		case cir.Addr:
			return e.locReg[o.Var]
		}
		e.emit(e.be.li(r, lk.Convert(o.Val))...)
		return r
	}
	if len(in.Args) > 0 && kmap.Uses(insns, "{v}") {
		bind["{v}"] = value(in.Args[0], args[0])
	}
	if len(in.Args) > 1 && kmap.Uses(insns, "{w}") {
		bind["{w}"] = value(in.Args[1], args[1])
	}
	if in.Mask != nil && kmap.Uses(insns, "{mask}") {
		bind["{mask}"] = value(*in.Mask, args[2])
	}
	if in.Dst >= 0 {
		bind["{ret}"] = e.slot[in.Dst]
	} else {
		bind["{ret}"] = e.be.discard()
	}
	// The row's numeric labels get names of their own.
	e.nrow++
	defs := map[int]string{}
	for i, x := range insns {
		if x.Label != "" {
			defs[i] = e.named(fmt.Sprintf("R%d_%s", e.nrow, x.Label))
		}
	}
	find := func(at int, ref string) (name string, back bool, ok bool) {
		j, back, err := kmap.LabelTarget(insns, at, ref)
		return defs[j], back, err == nil
	}
	for i, x := range insns {
		if x.Label != "" {
			e.pending = append(e.pending, defs[i])
		}
		if x.Op == "" || kmap.Hint(c.tg.Map, x) {
			continue
		}
		var ops []string
		for _, a := range x.Args {
			if kmap.IsLabelRef(a) {
				name, back, ok := find(i, a)
				if !ok {
					e.fail(fmt.Errorf("kmap %s %s: %s: no label %s", c.tg.Map, in.Prim, x, a))
					return
				}
				if back && !c.opt.RetryLoops {
					// A retry ends the path (see the package comment).
					name = e.named("RETRY")
					e.th.retry = true
				}
				ops = append(ops, name)
				continue
			}
			for ph, r := range bind {
				a = strings.ReplaceAll(a, ph, r)
			}
			if strings.Contains(a, "{") {
				e.fail(fmt.Errorf("kmap %s %s: %s: placeholder with no value", c.tg.Map, in.Prim, x))
				return
			}
			ops = append(ops, a)
		}
		e.emit(e.be.format(x.Op, ops))
	}
	if in.Dst < 0 {
		return
	}
	// The value returned: a load's is the location's, kept converted to
	// its type (every store converts); a read-modify-write's may be a
	// sum computed in 64 bits (atomic_add_return), converted to the
	// location's type; then the register's own type converts it.
	// A truth value (0 or 1: *_and_test, test_bit, a trylock's success)
	// needs no conversion.
	ret, src := e.slot[in.Dst], ctype.Kind{}
	p, ok := c.t.Primitive(in.Prim)
	switch {
	case in.Prim == kmap.PlainLoad || ok && p.Kind == litmus.KLoad && p.Ret == litmus.RetValue:
		src = lk
	case ok && p.Ret > litmus.RetNew:
		return
	case lk.Narrow():
		e.emit(e.be.ext(ret, ret, lk)...)
		src = lk
	}
	if k := e.kind[in.Dst]; k.Narrow() && !contains(k, src) {
		e.emit(e.be.ext(ret, ret, k)...)
	}
}
