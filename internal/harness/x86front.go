package harness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// X86 and X86_64 threads run instruction for instruction: each instruction
// of the test is encoded as written, with the test's own registers, the
// memory operand "x" becoming x's address in the current instance
// ([base + offset]). The run loop's registers are taken from those the test
// does not use.

// x86Canon maps every register alias to its 64-bit name, as
// model/op/compile_x86.go does: EAX, eax, ax, al and rax are one register.
var x86Canon = func() map[string]string {
	m := map[string]string{}
	for r := xreg(0); r < 16; r++ {
		for _, size := range []int{1, 2, 4, 8} {
			m[xregName(r, size)] = xregName(r, 8)
		}
	}
	for _, h := range []string{"ah", "bh", "ch", "dh"} {
		m[h] = "r" + h[:1] + "x"
	}
	return m
}()

// canonReg returns the canonical name of an x86 register and whether it is
// one of the 16 general-purpose registers the run can give the test.
func canonReg(name string) (string, bool) {
	n := strings.ToLower(strings.TrimPrefix(name, "%"))
	if c, ok := x86Canon[n]; ok {
		return c, true
	}
	return n, false
}

// x86Proc is the state of compiling one assembly thread.
type x86Proc struct {
	p   *program
	pr  *litmus.Proc
	att bool
	// used are the machine registers the test's code uses; remap maps
	// each register the test names to its machine register (see
	// remapRegs).
	used    map[xreg]bool
	remap   map[xreg]xreg
	width   map[string]int // canonical register -> widest alias used
	labels  map[string]int // test label -> asm label
	labelAt map[string]int // test label -> instruction index
	t       *x86Thread
}

// noOperandInsns are the instructions whose operands are never used.
var noOperandInsns = map[string]bool{"nop": true, "nopl": true, "nopw": true, "endbr64": true, "prefetch": true, "pause": true, "lfence": true, "mfence": true, "sfence": true}

// scanX86 collects the registers and memory widths of pr.
func (p *program) scanX86(pr *litmus.Proc) (*x86Proc, error) {
	xp := &x86Proc{p: p, pr: pr, att: p.test.Arch == litmus.ArchX8664, used: map[xreg]bool{}, remap: map[xreg]xreg{},
		width: map[string]int{}, labels: map[string]int{}, labelAt: map[string]int{}}
	named := map[xreg]bool{} // the registers the test names
	for i, in := range pr.Code {
		if in.Label != "" {
			xp.labelAt[in.Label] = i
		}
		if in.Op == "" {
			continue
		}
		m := strings.ToLower(in.Op)
		if noOperandInsns[m] {
			continue
		}
		size := xp.insnSize(in)
		for _, o := range in.Args {
			regs := []string{}
			switch o.Kind {
			case litmus.OpdReg:
				regs = append(regs, o.Reg)
			case litmus.OpdMem:
				regs = append(regs, o.Base, o.Index)
				if o.Seg != "" {
					return nil, p.unsupported(o.Pos(), "segment override %s", o.Text)
				}
				if o.Sym != "" {
					v := p.addVar(o.Sym, 8, 1, false)
					v.maxAccess = max(v.maxAccess, size)
				}
			}
			for _, r := range regs {
				if r == "" {
					continue
				}
				c, gpr := canonReg(r)
				lr := strings.ToLower(r)
				if !gpr || lr == "ah" || lr == "bh" || lr == "ch" || lr == "dh" {
					return nil, p.unsupported(o.Pos(), "register %s", r)
				}
				named[x86RegByName[c].reg] = true
				xp.width[c] = max(xp.width[c], x86RegByName[lr].size)
			}
		}
	}
	if err := xp.remapRegs(named); err != nil {
		return nil, err
	}
	return xp, nil
}

// runRegs are the registers the generated code may not give the test: the
// stack pointer, and Go's frame pointer (RBP) and g (R14), which the
// trampoline's caller expects back.
var runRegs = []xreg{rSP, rBP, r14}

// remapOrder is where a test register of runRegs goes, first free first:
// the barrier's scratch registers (dead once an instance starts), then
// the run loop's pool from the end it takes from last. Never RAX, which
// CMPXCHG uses without naming it.
var remapOrder = []xreg{r11, rDX, rCX, rBX, rSI, rDI, r8, r9, r10, r12, r13, r15}

// remapRegs gives every register the test names a machine register: its
// own, except for those of runRegs, which move to free ones, as litmus7
// lets the C compiler allocate a test's registers (a test's register is
// a name; only CMPXCHG's RAX and a shift's CL are fixed, and neither is in
// runRegs).
func (xp *x86Proc) remapRegs(named map[xreg]bool) error {
	for r := xreg(0); r < 16; r++ {
		if named[r] && !slices.Contains(runRegs, r) {
			xp.remap[r], xp.used[r] = r, true
		}
	}
	for _, r := range runRegs {
		if !named[r] {
			continue
		}
		i := slices.IndexFunc(remapOrder, func(m xreg) bool { return !xp.used[m] })
		if i < 0 {
			return xp.p.unsupported(xp.pr.Pos(), "P%d uses every register: none is free for %s", xp.pr.ID, strings.ToUpper(xregName(r, 8)))
		}
		xp.remap[r], xp.used[remapOrder[i]] = remapOrder[i], true
	}
	return nil
}

// machineReg returns the machine register of a register operand of the
// test ("EAX", "r14d"): the remapped register, at the name's width.
func (xp *x86Proc) machineReg(name string) (xop, bool) {
	r, ok := x86RegByName[strings.ToLower(strings.TrimPrefix(name, "%"))]
	if !ok {
		return xop{}, false
	}
	m, ok := xp.remap[r.reg]
	if !ok {
		return xop{}, false
	}
	return xR(m, r.size), true
}

// machineOf returns the machine register of the test's register with
// canonical name canon, and whether the test names it.
func (xp *x86Proc) machineOf(canon string) (xreg, bool) {
	r, ok := x86RegByName[canon]
	if !ok {
		return noReg, false
	}
	m, ok := xp.remap[r.reg]
	return m, ok
}

// insnSize is the operand size of in from its suffix or register operands,
// else 4 (herd's X86 is a 32-bit architecture, and "movl" is what X86_64
// tests write).
func (xp *x86Proc) insnSize(in *litmus.Instr) int {
	m := strings.ToLower(in.Op)
	if _, sfx := splitSuffix(m); sfx != 0 {
		return sfx
	}
	for _, o := range in.Args {
		if o.Kind == litmus.OpdReg {
			if r, ok := x86RegByName[strings.ToLower(o.Reg)]; ok {
				return r.size
			}
		}
	}
	return 4
}

// operand resolves a test operand.
func (xp *x86Proc) operand(o *litmus.Operand) (xop, error) {
	p := xp.p
	switch o.Kind {
	case litmus.OpdReg:
		r, ok := xp.machineReg(o.Reg)
		if !ok {
			return xop{}, p.unsupported(o.Pos(), "register %s", o.Reg)
		}
		return r, nil
	case litmus.OpdImm:
		return xI(o.Imm), nil
	case litmus.OpdMem:
		m := xop{kind: xoMem, base: noReg, index: noReg, disp: o.Disp}
		reg := func(name string) xreg {
			c, _ := canonReg(name)
			m, _ := xp.machineOf(c)
			return m
		}
		if o.Sym != "" {
			v, i, ok := p.elemOf(o.Sym)
			if !ok {
				return xop{}, p.errorf(o.Pos(), "unknown location %s", o.Sym)
			}
			m.base = xp.t.base
			m.disp += v.off + int64(i*v.elem)
			switch {
			case o.Base != "" && o.Index != "" && o.Scale != 0:
				return xop{}, p.unsupported(o.Pos(), "a location with both a base and an index register, %s", o.Text)
			case o.Base != "":
				m.index, m.scale = reg(o.Base), 1
			case o.Index != "" && o.Scale != 0:
				m.index, m.scale = reg(o.Index), o.Scale
			}
			return m, nil
		}
		if o.Base != "" {
			m.base = reg(o.Base)
		}
		if o.Index != "" && o.Scale != 0 {
			m.index, m.scale = reg(o.Index), o.Scale
		}
		if m.base == noReg && m.index == noReg {
			return xop{}, p.errorf(o.Pos(), "memory operand %s names no location", o.Text)
		}
		return m, nil
	}
	return xop{}, p.unsupported(o.Pos(), "operand %s", o.Text)
}

// genX86Asm generates an X86 or X86_64 thread.
func (p *program) genX86Asm(o Options, nthreads, me int, xp *x86Proc, inits []x86Init, obs []xreg) ([]byte, error) {
	spec := x86Spec{used: xp.used, inits: inits, obs: obs}
	for i, in := range xp.pr.Code {
		if in.Op == "" {
			continue
		}
		m := strings.ToLower(in.Op)
		if strings.HasPrefix(m, "j") && len(in.Args) == 1 {
			if at, ok := xp.labelAt[labelOf(in.Args[0])]; ok && at <= i {
				spec.loops = true
			}
		}
		if noOperandInsns[m] {
			continue
		}
		for _, a := range in.Args {
			if a.Kind == litmus.OpdMem && (a.Base != "" || a.Index != "" && a.Scale != 0) {
				spec.check = true
			}
		}
	}
	return p.genX86(o, nthreads, me, spec, func(t *x86Thread) error {
		xp.t = t
		for name := range xp.labelAt {
			xp.labels[name] = t.a.newLabel()
		}
		for i, in := range xp.pr.Code {
			if in.Label != "" {
				t.a.bind(xp.labels[in.Label])
			}
			if in.Op != "" {
				if err := xp.instr(i, in); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func labelOf(o *litmus.Operand) string {
	if o.Label != "" {
		return o.Label
	}
	return o.Text
}

// instr encodes one instruction of the test.
func (xp *x86Proc) instr(i int, in *litmus.Instr) error {
	p, t := xp.p, xp.t
	m := strings.ToLower(in.Op)
	lock := strings.EqualFold(in.Prefix, "lock")
	switch m {
	case "ret", "retq":
		t.a.jmp(t.bodyEnd)
		return nil
	case "movzx", "movsx":
		// The model reads them as MOV; so does the run.
		m = "mov"
	}
	if noOperandInsns[m] {
		if err := x86insn(t.a, false, m, 0, 4, nil, 0); err != nil {
			return p.unsupported(in.Pos(), "%v", err)
		}
		return nil
	}
	target := 0
	var ops []xop
	for _, a := range in.Args {
		if strings.HasPrefix(m, "j") {
			name := labelOf(a)
			l, ok := xp.labels[name]
			if !ok {
				return p.errorf(a.Pos(), "undefined label %s", name)
			}
			target = l
			continue
		}
		if a.Kind == litmus.OpdLabel && m == "mov" {
			// "mov x, %eax": the address of location x.
			v, e, ok := p.elemOf(a.Label)
			if !ok {
				return p.errorf(a.Pos(), "unknown location %s", a.Label)
			}
			o := t.addrOf(v, e, 0)
			o.size = -1 // marks an address value for lea below
			ops = append(ops, o)
			continue
		}
		o, err := xp.operand(a)
		if err != nil {
			return err
		}
		ops = append(ops, o)
	}
	if xp.att {
		for l, r := 0, len(ops)-1; l < r; l, r = l+1, r-1 {
			ops[l], ops[r] = ops[r], ops[l]
		}
	}
	if len(ops) == 2 && ops[1].kind == xoMem && ops[1].size == -1 {
		// mov of an address into a register: LEA.
		if ops[0].kind != xoReg {
			return p.unsupported(in.Pos(), "storing an address as an immediate")
		}
		ops[1].size = 0
		t.a.lea(8, xR(ops[0].reg, 8), ops[1])
		return nil
	}
	for _, o := range ops {
		// An address computed from the test's registers may fall outside
		// the instance: check it (a location's own [base + offset] is
		// always inside).
		if o.kind == xoMem && (o.base != t.base || o.index != noReg) && m != "lea" {
			t.checkMem(o)
		}
	}
	if strings.HasPrefix(m, "j") && target != 0 {
		if at := xp.labelAt[labelOf(in.Args[0])]; at <= i {
			t.loopCheck(m != "jmp" && m != "jmpq")
		}
	}
	if err := x86insn(t.a, lock, m, 0, 4, ops, target); err != nil {
		return p.unsupported(in.Pos(), "%s: %v", strings.TrimSpace(in.Prefix+" "+in.Op), err)
	}
	return nil
}

// x86InitsAndObs builds the initial registers of thread pr and the result
// slots of its observed registers, setting the columns' slots; it returns
// the registers to store after the body.
func (p *program) x86InitsAndObs(xp *x86Proc, ti int) ([]x86Init, []xreg, error) {
	var inits []x86Init
	seen := map[xreg]bool{} // machine registers
	for _, it := range p.test.Init {
		if it.Proc != xp.pr.ID || it.Value == nil {
			continue
		}
		c, gpr := canonReg(it.Name)
		val, err := p.initValue(it.Value)
		if err != nil {
			return nil, nil, err
		}
		if m, ok := xp.machineOf(c); gpr && ok && !seen[m] {
			seen[m] = true
			inits = append(inits, x86Init{reg: m, val: val})
		}
	}
	// Every register the code uses starts at 0 unless initialised.
	for r := xreg(0); r < 16; r++ {
		if xp.used[r] && !seen[r] {
			inits = append(inits, x86Init{reg: r})
		}
	}
	var obs []xreg
	for i := range p.cols {
		c := &p.cols[i]
		if !c.reg || c.proc != xp.pr.ID {
			continue
		}
		c.thread = ti
		canon, gpr := canonReg(c.regTxt)
		r, named := xp.machineOf(canon)
		if !gpr || !named {
			// Never written: the column is the initial value.
			v, err := p.regInit(xp.pr.ID, canon, func(a, b string) bool { x, _ := canonReg(a); return x == b })
			if err != nil {
				return nil, nil, err
			}
			c.slot, c.konst = -1, v
			continue
		}
		c.slot = -1
		for k, o := range obs {
			if o == r {
				c.slot = k
			}
		}
		if c.slot < 0 {
			c.slot = len(obs)
			obs = append(obs, r)
		}
		w := xp.width[canon]
		if p.test.Arch == litmus.ArchX86 {
			w = 4
		}
		c.width = w
	}
	return inits, obs, nil
}

func (xp *x86Proc) String() string { return fmt.Sprintf("P%d", xp.pr.ID) }
