package op

import (
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
)

// compiler holds what compiling one test needs: the program being built
// and the errors found so far.
type compiler struct {
	t    *litmus.Test
	p    *program
	errs litmus.ErrorList
	objs *objTable // built by objects, on the first ptr_add
}

// objects returns the table of the test's objects (litmus.Object), which
// ptr_add reads; a cell naming no location is an error at the object.
func (c *compiler) objects() *objTable {
	if c.objs != nil {
		return c.objs
	}
	c.objs = &objTable{p: c.p, cell: map[val]objCell{}, at: map[objCell]val{}}
	for i, o := range c.t.Objects {
		for _, cl := range o.Cells {
			l, ok := c.p.byName[cl.Loc]
			if !ok {
				c.errorf(o.Pos(), "object %s: %s is not a location of the init block", o.Name, cl.Loc)
				continue
			}
			a := c.p.locs[l].addr
			if prev, dup := c.objs.cell[a]; dup {
				c.errorf(o.Pos(), "object %s: %s is already a cell of object %s", o.Name, cl.Loc, c.t.Objects[prev.obj].Name)
				continue
			}
			c.objs.cell[a] = objCell{i, val(cl.Off)}
			c.objs.at[objCell{i, val(cl.Off)}] = a
		}
	}
	return c.objs
}

func (c *compiler) errorf(pos litmus.Pos, format string, args ...any) {
	if len(c.errs) < 10 {
		c.errs.Add(c.t.File.Position(pos), fmt.Sprintf(format, args...))
	}
}

// compile turns a parsed test into a program.
func compile(t *litmus.Test) (*program, error) {
	// Names were resolved before any engine ran (model.Resolve).
	c := &compiler{t: t, p: &program{test: t, byName: map[string]int{}, byAddr: map[val]int{}, domains: []string{""}}}
	c.declareLocations()
	switch t.Arch {
	case litmus.ArchC:
		for _, pr := range t.Procs {
			c.compileCProc(pr)
		}
	case litmus.ArchX86, litmus.ArchX8664:
		for _, pr := range t.Procs {
			c.compileAsmProc(pr)
		}
	case litmus.ArchLISA:
		c.errorf(t.ArchPos, "LISA tests are checked under the Linux-kernel memory model only (--model lkmm): their annotations name its sets")
	default:
		c.errorf(t.ArchPos, "%s tests are checked under their architecture's model (--model %s) or a cat model (--cat)", t.Arch, strings.ToLower(string(t.Arch)))
	}
	if len(c.errs) == 0 {
		c.initRegisters()
	}
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	if t.Arch == litmus.ArchC {
		kinds := ctype.Locations(t)
		for i := range c.p.locs {
			l := &c.p.locs[i]
			l.conv = kinds[l.base]
			if _, isAddr := c.p.symbol(l.init); !isAddr {
				// char x = -1 is 255 (model/ctype).
				l.init = l.conv.Convert(l.init)
			}
		}
	}
	for _, th := range c.p.threads {
		for pc := range th.code {
			if th.code[pc].target > len(th.code) {
				th.code[pc].target = len(th.code)
			}
		}
		for pc, in := range th.code {
			if (in.op == opBranch || in.op == opJump) && in.target <= pc {
				c.p.hasLoops = true
			}
			if a, ok := in.addr.static(); ok {
				_, isLoc := c.p.locAt(a)
				th.code[pc].badStatic = !isLoc
			}
		}
	}
	if len(c.p.threads) > 64 {
		var l litmus.ErrorList
		l.Add(t.File.Position(t.Pos()), fmt.Sprintf("%d threads; at most 64 are supported", len(c.p.threads)))
		return nil, l
	}
	return c.p, nil
}

// ---------------------------------------------------------------------------
// Locations.

// declareLocations collects the shared locations: the init block, the C
// parameters, and the names the final section uses, in that order.
func (c *compiler) declareLocations() {
	for _, it := range c.t.Init {
		if it.Proc >= 0 {
			continue
		}
		size := litmus.TypeSize(it.Type, litmus.LP64)
		if it.Len > 0 {
			for i := 0; i < it.Len; i++ {
				c.addLoc(fmt.Sprintf("%s[%d]", it.Name, i), it.Name, i, size)
			}
			// The array's name stands for its first element's address.
			if _, ok := c.p.byName[it.Name]; !ok {
				c.p.byName[it.Name] = c.p.byName[it.Name+"[0]"]
			}
		} else {
			c.addLoc(it.Name, it.Name, -1, size)
		}
		if strings.Contains(it.Type, "srcu_struct") {
			c.addDomain(it.Name)
		}
	}
	for _, pr := range c.t.Procs {
		for _, prm := range pr.Params {
			c.addLoc(prm.Name.Name, prm.Name.Name, -1, 8)
			if strings.Contains(prm.Type, "srcu_struct") {
				c.addDomain(prm.Name.Name)
			}
		}
	}
	// Names in the final section and the init values that are addresses.
	visit := func(p litmus.Prop) {
		litmus.EachAtom(p, func(p *litmus.AtomProp) {
			c.finalLoc(p.Loc)
			if p.Val.Loc != nil {
				c.finalLoc(p.Val.Loc)
			} else if !p.Val.IsInt {
				c.addLoc(p.Val.Sym, p.Val.Sym, -1, 8)
			}
		})
	}
	for _, it := range c.t.Init {
		switch v := it.Value.(type) {
		case *litmus.Ident:
			if v.Name != "NULL" { // int *p = NULL is 0, as in the LKMM
				c.addLoc(v.Name, v.Name, -1, 8)
			}
		case *litmus.UnaryExpr:
			if id, ok := v.X.(*litmus.Ident); ok && v.Op == "&" {
				c.addLoc(id.Name, id.Name, -1, 8)
			}
		}
	}
	for _, l := range c.t.Locations {
		c.finalLoc(l)
	}
	for _, p := range c.t.FinalProps() {
		visit(p)
	}
	// Initial values, now that every address is known.
	for _, it := range c.t.Init {
		if it.Proc >= 0 || it.Value == nil {
			continue
		}
		if it.Len > 0 {
			bl, ok := it.Value.(*litmus.BraceList)
			if !ok {
				c.errorf(it.Pos(), "array %s needs a {...} initializer", it.Name)
				continue
			}
			if len(bl.Elems) > it.Len {
				c.errorf(bl.Pos(), "too many initializers for %s[%d]", it.Name, it.Len)
			}
			for i, e := range bl.Elems {
				if v, ok := c.initValue(e); ok && i < it.Len {
					c.p.locs[c.p.byName[fmt.Sprintf("%s[%d]", it.Name, i)]].init = v
				}
			}
			continue
		}
		if v, ok := c.initValue(it.Value); ok {
			c.p.locs[c.p.byName[it.Name]].init = v
		}
	}
}

func (c *compiler) finalLoc(l *litmus.LocRef) {
	if l.Proc >= 0 {
		return
	}
	if _, ok := c.p.byName[l.Name]; ok {
		return
	}
	if l.Index >= 0 {
		name := fmt.Sprintf("%s[%d]", l.Name, l.Index)
		if _, ok := c.p.byName[name]; !ok {
			c.errorf(l.Pos(), "unknown location %s", name)
		}
		return
	}
	c.addLoc(l.Name, l.Name, -1, 8)
}

func (c *compiler) addLoc(name, base string, index, size int) {
	if _, ok := c.p.byName[name]; ok {
		return
	}
	addr := addrBase
	if n := len(c.p.locs); n > 0 {
		last := c.p.locs[n-1]
		addr = last.addr + val(last.size)
		if index <= 0 {
			// Each variable starts on its own 64-byte boundary, so that
			// an access past the end of one never lands in the next.
			addr = (addr + 127) &^ 63
		}
	}
	c.p.byName[name] = len(c.p.locs)
	c.p.byAddr[addr] = len(c.p.locs)
	c.p.locs = append(c.p.locs, location{name: name, base: base, index: index, addr: addr, size: size})
}

func (c *compiler) addDomain(name string) {
	for _, d := range c.p.domains {
		if d == name {
			return
		}
	}
	c.p.domains = append(c.p.domains, name)
}

// domainOf returns the RCU domain of the srcu_struct at address a.
func (c *compiler) domainOf(pos litmus.Pos, a *expr) int {
	if v, ok := a.static(); ok {
		if l, ok := c.p.locAt(v); ok {
			for i, d := range c.p.domains {
				if i > 0 && d == c.p.locs[l].name {
					return i
				}
			}
			c.addDomain(c.p.locs[l].name)
			return len(c.p.domains) - 1
		}
	}
	c.errorf(pos, "the srcu_struct must be a parameter or a shared location")
	return 0
}

// initValue evaluates an init-block value: an integer, an address (x or
// &x), ATOMIC_INIT(v), or a negated integer.
func (c *compiler) initValue(e litmus.Expr) (val, bool) {
	switch e := e.(type) {
	case *litmus.IntLit:
		return e.Value, true
	case *litmus.Ident:
		if i, ok := c.p.byName[e.Name]; ok {
			return c.p.locs[i].addr, true
		}
		if e.Name == "NULL" {
			return 0, true
		}
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := e.X.(*litmus.Ident); ok {
				if i, ok := c.p.byName[id.Name]; ok {
					return c.p.locs[i].addr, true
				}
			}
		case "-":
			if v, ok := c.initValue(e.X); ok {
				return -v, true
			}
		}
	case *litmus.CallExpr:
		if (e.Fun.Name == "ATOMIC_INIT" || e.Fun.Name == "REFCOUNT_INIT") && len(e.Args) == 1 {
			return c.initValue(e.Args[0])
		}
	case *litmus.ParenExpr:
		return c.initValue(e.X)
	}
	c.errorf(e.Pos(), "unsupported initial value")
	return 0, false
}

// thread returns the compiled thread with id n, creating it.
func (c *compiler) thread(n int) *thread {
	for _, th := range c.p.threads {
		if th.id == n {
			return th
		}
	}
	th := &thread{id: n, alias: map[string]int{}}
	c.p.threads = append(c.p.threads, th)
	sort.Slice(c.p.threads, func(i, j int) bool { return c.p.threads[i].id < c.p.threads[j].id })
	return th
}

// reg returns the number of register name in th, creating it.
func (c *compiler) reg(th *thread, name string) int {
	key := name
	if c.t.Arch != litmus.ArchC {
		key = canonReg(name)
	}
	if r, ok := th.alias[key]; ok {
		return r
	}
	th.alias[key] = len(th.regs)
	th.regs = append(th.regs, key)
	return len(th.regs) - 1
}

// initRegisters sets the initial register values from "0:r1=2" init items
// and creates the registers the final section names.
func (c *compiler) initRegisters() {
	for _, it := range c.t.Init {
		if it.Proc < 0 {
			continue
		}
		th := c.findThread(it.Proc, it.Pos())
		if th == nil {
			continue
		}
		r := c.reg(th, it.Name)
		for len(th.init) < len(th.regs) {
			th.init = append(th.init, 0)
		}
		if it.Value != nil {
			if v, ok := c.initValue(it.Value); ok {
				th.init[r] = v
			}
		}
	}
	reg := func(l *litmus.LocRef) {
		if l != nil && l.Proc >= 0 {
			if th := c.findThread(l.Proc, l.Pos()); th != nil {
				c.reg(th, l.Name)
			}
		}
	}
	visit := func(p litmus.Prop) {
		litmus.EachAtom(p, func(p *litmus.AtomProp) {
			reg(p.Loc)
			reg(p.Val.Loc)
		})
	}
	for _, l := range c.t.Locations {
		reg(l)
	}
	for _, p := range c.t.FinalProps() {
		visit(p)
	}
	for _, th := range c.p.threads {
		for len(th.init) < len(th.regs) {
			th.init = append(th.init, 0)
		}
	}
}

func (c *compiler) findThread(n int, pos litmus.Pos) *thread {
	for _, th := range c.p.threads {
		if th.id == n {
			return th
		}
	}
	c.errorf(pos, "no thread P%d", n)
	return nil
}

// emit appends an instruction to th and returns its index.
func emit(th *thread, in instr) int {
	th.code = append(th.code, in)
	return len(th.code) - 1
}
