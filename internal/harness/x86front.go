package harness

import (
	"fmt"
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
	p       *program
	pr      *litmus.Proc
	att     bool
	used    map[xreg]bool
	width   map[string]int // canonical register -> widest alias used
	labels  map[string]int // test label -> asm label
	labelAt map[string]int // test label -> instruction index
	t       *x86Thread
}

// noOperandInsns are the instructions whose operands are never used.
var noOperandInsns = map[string]bool{"nop": true, "nopl": true, "nopw": true, "endbr64": true, "prefetch": true, "pause": true, "lfence": true, "mfence": true, "sfence": true}

// scanX86 collects the registers and memory widths of pr.
func (p *program) scanX86(pr *litmus.Proc) (*x86Proc, error) {
	xp := &x86Proc{p: p, pr: pr, att: p.test.Arch == litmus.ArchX8664, used: map[xreg]bool{}, width: map[string]int{}, labels: map[string]int{}, labelAt: map[string]int{}}
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
				xr := x86RegByName[c].reg
				if xr == rSP || xr == rBP || xr == r14 {
					return nil, p.unsupported(o.Pos(), "register %s (the run needs it)", r)
				}
				xp.used[xr] = true
				xp.width[c] = max(xp.width[c], x86RegByName[lr].size)
			}
		}
	}
	return xp, nil
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
		r, ok := x86RegByName[strings.ToLower(o.Reg)]
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
			return x86RegByName[c].reg
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
	seen := map[string]bool{}
	for _, it := range p.test.Init {
		if it.Proc != xp.pr.ID || it.Value == nil {
			continue
		}
		c, gpr := canonReg(it.Name)
		val, err := p.initValue(it.Value)
		if err != nil {
			return nil, nil, err
		}
		if gpr && xp.used[x86RegByName[c].reg] && !seen[c] {
			seen[c] = true
			inits = append(inits, x86Init{reg: x86RegByName[c].reg, val: val})
		}
	}
	// Every register the code uses starts at 0 unless initialised.
	for r := xreg(0); r < 16; r++ {
		if xp.used[r] && !seen[xregName(r, 8)] {
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
		if !gpr || !xp.used[x86RegByName[canon].reg] {
			// Never written: the column is the initial value.
			v, err := p.regInit(xp.pr.ID, canon, func(a, b string) bool { x, _ := canonReg(a); return x == b })
			if err != nil {
				return nil, nil, err
			}
			c.slot, c.konst = -1, v
			continue
		}
		r := x86RegByName[canon].reg
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
