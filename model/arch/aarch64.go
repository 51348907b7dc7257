package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// AArch64 follows herd7's AArch64 semantics (herd/AArch64Sem.ml) for the
// user-level instruction set: explicit accesses only. The tags are the
// event sets the Arm models name: A (acquire: LDAR, LDAXR, and the A
// forms of the atomics), Q (acquire-PC: LDAPR), L (release: STLR, STLXR,
// the L forms), X (exclusives), NoRet (the read of an atomic whose result
// is discarded), the DMB.*, DSB.* and ISB fences, Exp (explicit
// accesses: every access here) and BCC (conditional branches).
// docs/semantics.md lists each instruction's events.

var aarch64Barriers = strings.Fields("SY ST LD ISH ISHST ISHLD OSH OSHST OSHLD NSH NSHST NSHLD")

var aarch64Vocab = func() []string {
	v := []string{"A", "Q", "L", "X", "NoRet", "Exp", "BCC", "ISB"}
	for _, b := range aarch64Barriers {
		v = append(v, "DMB."+b, "DSB."+b)
	}
	return v
}()

var aarch64Tags = newTagSet(aarch64Vocab)

func init() { archs[litmus.ArchAArch64] = func() semantics { return aarch64{} } }

type aarch64 struct{}

func (aarch64) vocab() []string { return aarch64Vocab }

// canon maps W0/X0/w0 to X0, WZR/XZR to XZR, SP/WSP to SP.
func (aarch64) canon(name string) string {
	n := strings.ToUpper(name)
	switch n {
	case "WZR", "XZR":
		return "XZR"
	case "SP", "WSP":
		return "SP"
	}
	if len(n) >= 2 && (n[0] == 'W' || n[0] == 'X') {
		num := n[1:]
		for _, c := range num {
			if c < '0' || c > '9' {
				return ""
			}
		}
		return "X" + num
	}
	return ""
}

// aarch64Path is the architecture state of one path: the exclusive
// monitor set by the last load-exclusive.
type aarch64Path struct {
	exclRead int // index of the load-exclusive's read, -1 when none
	exclLoc  int
	flags    flagsVal
}

// flagsVal is NZCV as the last flag-setting instruction left it, with
// the reads its operands depend on.
type flagsVal struct {
	set     bool
	n, z, c bool
	v       bool
	t       axiom.Taint
}

func (m *machine) a64() *aarch64Path {
	if m.state == nil {
		m.state = &aarch64Path{exclRead: -1}
	}
	return m.state.(*aarch64Path)
}

// regVal reads a register operand: XZR reads 0; a W register its low 32
// bits.
func (m *machine) a64reg(r *litmus.Register) reg {
	if r.Name == "XZR" {
		return reg{}
	}
	v := m.get(r.Name)
	if r.Width == 32 && !v.v.IsAddr() {
		v.v = axiom.Int(int64(uint32(v.v.N)))
	}
	return v
}

// a64set writes a register operand; writing a W register clears the
// upper 32 bits.
func (m *machine) a64set(r *litmus.Register, v reg) {
	if r.Name == "XZR" {
		return
	}
	if r.Width == 32 && !v.v.IsAddr() {
		v.v = axiom.Int(int64(uint32(v.v.N)))
	}
	m.set(r.Name, v)
}

// operand reads a register, shifted register, extended register or
// immediate operand.
func (m *machine) a64operand(o *litmus.Operand, width int) reg {
	switch o.Kind {
	case litmus.OpdImm:
		v := o.Imm
		if o.Shift == "LSL" {
			v <<= uint(o.Amount)
		}
		return reg{v: axiom.Int(v)}
	case litmus.OpdReg:
		return m.a64reg(o.R)
	case litmus.OpdShiftedReg, litmus.OpdExtendedReg:
		r := m.a64reg(o.R)
		if r.v.IsAddr() {
			if o.Amount == 0 {
				return r
			}
			m.dead = true
			return reg{}
		}
		r.v = axiom.Int(shiftExtend(r.v.N, o.Shift, o.Amount, width))
		return r
	}
	m.fail(o.Pos(), "unexpected operand %s", o.Text)
	return reg{}
}

// shiftExtend applies an AArch64 shift or extension to x.
func shiftExtend(x int64, op string, amount int64, width int) int64 {
	switch op {
	case "LSL":
		x <<= uint(amount)
	case "LSR":
		if width == 32 {
			x = int64(uint32(x) >> uint(amount))
		} else {
			x = int64(uint64(x) >> uint(amount))
		}
	case "ASR":
		if width == 32 {
			x = int64(int32(x) >> uint(amount))
		} else {
			x >>= uint(amount)
		}
	case "ROR":
		a := uint(amount)
		if width == 32 {
			u := uint32(x)
			x = int64(u>>a | u<<(32-a))
		} else {
			u := uint64(x)
			x = int64(u>>a | u<<(64-a))
		}
	case "UXTB":
		x = int64(uint8(x)) << uint(amount)
	case "UXTH":
		x = int64(uint16(x)) << uint(amount)
	case "UXTW":
		x = int64(uint32(x)) << uint(amount)
	case "UXTX", "SXTX":
		x <<= uint(amount)
	case "SXTB":
		x = int64(int8(x)) << uint(amount)
	case "SXTH":
		x = int64(int16(x)) << uint(amount)
	case "SXTW":
		x = int64(int32(x)) << uint(amount)
	}
	return x
}

// address computes a memory operand's address and applies its
// writeback.
func (m *machine) a64address(o *litmus.Operand) reg {
	mem := o.Mem
	base := m.a64reg(&mem.Base)
	if mem.Base.Name == "XZR" {
		base = m.get("XZR")
	}
	a := base
	switch {
	case mem.Index != nil:
		idx := m.a64reg(mem.Index)
		if idx.v.IsAddr() {
			if a.v.IsAddr() {
				m.dead = true
				return reg{}
			}
			a, idx = idx, a
		}
		off := idx.v.N
		if mem.Extend != "" {
			off = shiftExtend(off, mem.Extend, mem.Amount, 64)
		} else {
			off <<= uint(mem.Amount)
		}
		a = reg{v: addVal(a.v, off), t: a.t.Merge(idx.t)}
	case mem.Mode != litmus.AddrPostIndex:
		a.v = addVal(a.v, mem.Offset)
	}
	if mem.Mode != litmus.AddrOffset {
		m.a64set(&mem.Base, reg{v: addVal(base.v, mem.Offset), t: base.t})
	}
	return a
}

func addVal(v axiom.Val, off int64) axiom.Val {
	v.N += off
	return v
}

// orderTags returns the tags of an access from the ordering letters of
// its mnemonic.
func (aarch64) exec(m *machine, in *litmus.Instr) string {
	op := in.Mnemonic
	args := in.Args
	st := m.a64()
	m.size = a64Size(op, args)
	switch {
	case op == "NOP" || op == "HINT":
		return ""
	case op == "B":
		return args[0].Label
	case strings.HasPrefix(op, "B."):
		f := st.flags
		m.branch(f.t, aarch64Tags.of("BCC"))
		if condHolds(op[2:], f) {
			return args[0].Label
		}
		return ""
	case op == "CBZ" || op == "CBNZ":
		r := m.a64reg(args[0].R)
		m.branch(r.t, aarch64Tags.of("BCC"))
		zero := !r.v.Truth()
		if zero == (op == "CBZ") {
			return args[1].Label
		}
		return ""
	case op == "TBZ" || op == "TBNZ":
		r := m.a64reg(args[0].R)
		m.branch(r.t, aarch64Tags.of("BCC"))
		bit := !r.v.IsAddr() && r.v.N>>uint(args[1].Imm)&1 != 0
		if !bit == (op == "TBZ") {
			return args[2].Label
		}
		return ""
	case op == "DMB" || op == "DSB":
		m.fence(aarch64Tags.of(op + "." + args[0].Barrier))
		return ""
	case op == "ISB":
		m.fence(aarch64Tags.of("ISB"))
		return ""
	}
	if m.a64memory(in, op, args, st) {
		return ""
	}
	if m.a64data(in, op, args, st) {
		return ""
	}
	m.fail(in.Pos(), "%s is not supported by the AArch64 semantics", in.Op)
	return ""
}

// condHolds evaluates a condition code on the flags.
func condHolds(cond string, f flagsVal) bool {
	switch cond {
	case "EQ":
		return f.z
	case "NE":
		return !f.z
	case "CS", "HS":
		return f.c
	case "CC", "LO":
		return !f.c
	case "MI":
		return f.n
	case "PL":
		return !f.n
	case "VS":
		return f.v
	case "VC":
		return !f.v
	case "HI":
		return f.c && !f.z
	case "LS":
		return !f.c || f.z
	case "GE":
		return f.n == f.v
	case "LT":
		return f.n != f.v
	case "GT":
		return !f.z && f.n == f.v
	case "LE":
		return f.z || f.n != f.v
	case "AL", "NV":
		return true
	}
	return false
}

// a64memory executes loads, stores, exclusives and atomics.
func (m *machine) a64memory(in *litmus.Instr, op string, args []*litmus.Operand, st *aarch64Path) bool {
	exp := aarch64Tags.of("Exp")
	switch op {
	case "LDR", "LDRB", "LDRH", "LDRSB", "LDRSH", "LDRSW", "LDUR", "LDAR", "LDARB", "LDARH", "LDAPR", "LDAPRB", "LDAPRH":
		tags := exp
		if strings.HasPrefix(op, "LDAR") {
			tags |= aarch64Tags.of("A")
		}
		if strings.HasPrefix(op, "LDAPR") {
			tags |= aarch64Tags.of("Q")
		}
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		v, i := m.load(a, tags)
		if i < 0 {
			return true
		}
		v = loadExtend(op, v)
		m.a64set(args[0].R, reg{v: v, t: axiom.Taint{i}})
		return true
	case "STR", "STRB", "STRH", "STLR", "STLRB", "STLRH":
		tags := exp
		if strings.HasPrefix(op, "STLR") {
			tags |= aarch64Tags.of("L")
		}
		v := m.a64reg(args[0].R)
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		m.store(a, v, tags, -1)
		return true
	case "LDP", "LDNP", "LDPSW":
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		size := int64(8)
		if args[0].R.Width == 32 {
			size = 4
		}
		v1, i1 := m.load(a, exp)
		if i1 < 0 {
			return true
		}
		v2, i2 := m.load(reg{v: addVal(a.v, size), t: a.t}, exp)
		if i2 < 0 {
			return true
		}
		m.a64set(args[0].R, reg{v: v1, t: axiom.Taint{i1}})
		m.a64set(args[1].R, reg{v: v2, t: axiom.Taint{i2}})
		return true
	case "STP", "STNP":
		v1, v2 := m.a64reg(args[0].R), m.a64reg(args[1].R)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		size := int64(8)
		if args[0].R.Width == 32 {
			size = 4
		}
		m.store(a, v1, exp, -1)
		m.store(reg{v: addVal(a.v, size), t: a.t}, v2, exp, -1)
		return true
	case "LDXR", "LDXRB", "LDXRH", "LDAXR", "LDAXRB", "LDAXRH":
		tags := exp | aarch64Tags.of("X")
		if strings.HasPrefix(op, "LDAX") {
			tags |= aarch64Tags.of("A")
		}
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		v, i := m.load(a, tags)
		if i < 0 {
			return true
		}
		st.exclRead, st.exclLoc = i, m.events[i].Loc
		m.a64set(args[0].R, reg{v: v, t: axiom.Taint{i}})
		return true
	case "STXR", "STXRB", "STXRH", "STLXR", "STLXRB", "STLXRH":
		tags := exp | aarch64Tags.of("X")
		if strings.HasPrefix(op, "STLX") {
			tags |= aarch64Tags.of("L")
		}
		v := m.a64reg(args[1].R)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		// The store succeeds (status 0) or fails (status 1, no write);
		// it can succeed only paired with the load-exclusive before it.
		if st.exclRead >= 0 && m.choose(2) == 0 {
			if m.stopped() {
				return true
			}
			m.store(a, v, tags, st.exclRead)
			m.a64set(args[0].R, reg{v: axiom.Int(0)})
		} else {
			if m.stopped() {
				return true
			}
			m.a64set(args[0].R, reg{v: axiom.Int(1)})
		}
		st.exclRead = -1
		return true
	case "SWP", "SWPA", "SWPL", "SWPAL", "SWPB", "SWPAB", "SWPLB", "SWPALB", "SWPH", "SWPAH", "SWPLH", "SWPALH":
		rt := args[1].R
		rtags, wtags := atomicOrder(op[3:], rt)
		s := m.a64reg(args[0].R)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		old, i := m.load(a, rtags)
		if i < 0 {
			return true
		}
		m.store(a, s, wtags, i)
		m.a64set(rt, reg{v: old, t: axiom.Taint{i}})
		return true
	}
	if strings.HasPrefix(op, "CAS") && !strings.HasPrefix(op, "CASP") {
		rs, rt := args[0].R, args[1].R
		rtags, wtags := atomicOrder(op[3:], rs)
		expect := m.a64reg(rs)
		nv := m.a64reg(rt)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		old, i := m.load(a, rtags)
		if i < 0 {
			return true
		}
		if old == expect.v {
			m.store(a, nv, wtags, i)
		}
		m.a64set(rs, reg{v: old, t: axiom.Taint{i}})
		return true
	}
	if o, ord, ok := lseOp(op); ok {
		var rs, rt *litmus.Register
		rs = args[0].R
		var memArg *litmus.Operand
		if strings.HasPrefix(op, "ST") {
			rt = &litmus.Register{Name: "XZR", Width: rs.Width}
			memArg = args[1]
		} else {
			rt = args[1].R
			memArg = args[2]
		}
		rtags, wtags := atomicOrder(ord, rt)
		s := m.a64reg(rs)
		a := m.a64address(memArg)
		if m.stopped() {
			return true
		}
		old, i := m.load(a, rtags)
		if i < 0 {
			return true
		}
		nv := reg{v: lseApply(o, old, s.v, rs.Width), t: axiom.Taint{i}.Merge(s.t)}
		m.store(a, nv, wtags, i)
		m.a64set(rt, reg{v: old, t: axiom.Taint{i}})
		return true
	}
	return false
}

// atomicOrder returns the tags of an atomic's read and write from its
// ordering suffix ("", "A", "L", "AL", then an optional B or H), the
// read marked NoRet when its result goes to the zero register.
func atomicOrder(suffix string, dst *litmus.Register) (axiom.Tags, axiom.Tags) {
	suffix = strings.TrimSuffix(strings.TrimSuffix(suffix, "B"), "H")
	exp := aarch64Tags.of("Exp")
	r, w := exp, exp
	if strings.Contains(suffix, "A") {
		r |= aarch64Tags.of("A")
	}
	if strings.Contains(suffix, "L") {
		w |= aarch64Tags.of("L")
	}
	if dst.Name == "XZR" {
		r |= aarch64Tags.of("NoRet")
	}
	return r, w
}

var lseOps = []string{"ADD", "CLR", "EOR", "SET", "SMAX", "SMIN", "UMAX", "UMIN"}

// lseOp splits an LSE mnemonic (LDADDAL, STSETLB, ...) into its
// operation and ordering suffix.
func lseOp(op string) (string, string, bool) {
	var rest string
	switch {
	case strings.HasPrefix(op, "LD"):
		rest = op[2:]
	case strings.HasPrefix(op, "ST"):
		rest = op[2:]
	default:
		return "", "", false
	}
	for _, o := range lseOps {
		if strings.HasPrefix(rest, o) {
			suffix := rest[len(o):]
			switch strings.TrimSuffix(strings.TrimSuffix(suffix, "B"), "H") {
			case "", "A", "L", "AL":
				return o, suffix, true
			}
		}
	}
	return "", "", false
}

func lseApply(op string, old, s axiom.Val, width int) axiom.Val {
	if old.IsAddr() || s.IsAddr() {
		if op == "ADD" && !s.IsAddr() {
			return addVal(old, s.N)
		}
		return old
	}
	a, b := old.N, s.N
	var r int64
	switch op {
	case "ADD":
		r = a + b
	case "CLR":
		r = a &^ b
	case "EOR":
		r = a ^ b
	case "SET":
		r = a | b
	case "SMAX":
		r = max(a, b)
	case "SMIN":
		r = min(a, b)
	case "UMAX":
		if uint64(a) > uint64(b) {
			r = a
		} else {
			r = b
		}
	case "UMIN":
		if uint64(a) < uint64(b) {
			r = a
		} else {
			r = b
		}
	}
	if width == 32 {
		r = int64(uint32(r))
	}
	return axiom.Int(r)
}

// loadExtend applies a load's sign extension.
func loadExtend(op string, v axiom.Val) axiom.Val {
	if v.IsAddr() {
		return v
	}
	switch op {
	case "LDRSB":
		return axiom.Int(int64(int8(v.N)))
	case "LDRSH":
		return axiom.Int(int64(int16(v.N)))
	case "LDRSW":
		return axiom.Int(int64(int32(v.N)))
	}
	return v
}

// a64data executes moves, arithmetic, comparisons and selections.
func (m *machine) a64data(in *litmus.Instr, op string, args []*litmus.Operand, st *aarch64Path) bool {
	width := 64
	if len(args) > 0 && args[0].R != nil {
		width = args[0].R.Width
	}
	trunc := func(x int64) int64 {
		if width == 32 {
			return int64(uint32(x))
		}
		return x
	}
	switch op {
	case "MOV":
		v := m.a64operand(args[1], width)
		m.a64set(args[0].R, v)
		return true
	case "MOVZ", "MOVN":
		v := args[1].Imm << uint(args[1].Amount)
		if op == "MOVN" {
			v = ^v
		}
		m.a64set(args[0].R, reg{v: axiom.Int(trunc(v))})
		return true
	case "MOVK":
		old := m.a64reg(args[0].R)
		sh := uint(args[1].Amount)
		v := old.v.N&^(0xffff<<sh) | (args[1].Imm&0xffff)<<sh
		m.a64set(args[0].R, reg{v: axiom.Int(trunc(v)), t: old.t})
		return true
	case "ADR":
		m.a64set(args[0].R, reg{v: axiom.Int(0)})
		return true
	case "SXTW":
		r := m.a64reg(args[1].R)
		if !r.v.IsAddr() {
			r.v = axiom.Int(int64(int32(r.v.N)))
		}
		m.a64set(args[0].R, r)
		return true
	case "MVN", "NEG", "NEGS":
		r := m.a64operand(args[1], width)
		if r.v.IsAddr() {
			m.dead = true
			return true
		}
		v := ^r.v.N
		if op != "MVN" {
			v = -r.v.N
		}
		m.a64set(args[0].R, reg{v: axiom.Int(trunc(v)), t: r.t})
		if op == "NEGS" {
			st.flags = subFlags(0, r.v.N, width, r.t)
		}
		return true
	case "CMP", "TST":
		a := m.a64reg(args[0].R)
		b := m.a64operand(args[1], width)
		t := a.t.Merge(b.t)
		if op == "TST" {
			x := a.v.N & b.v.N
			st.flags = flagsVal{set: true, n: trunc(x)>>(width-1)&1 != 0, z: trunc(x) == 0, t: t}
			return true
		}
		if a.v.IsAddr() || b.v.IsAddr() {
			st.flags = flagsVal{set: true, z: a.v == b.v, c: true, t: t}
			return true
		}
		st.flags = subFlags(a.v.N, b.v.N, width, t)
		return true
	case "CSEL", "CSINC", "CSINV", "CSNEG":
		a, b := m.a64reg(args[1].R), m.a64reg(args[2].R)
		f := st.flags
		var r reg
		if condHolds(args[3].Cond, f) {
			r = a
		} else {
			r = b
			if !r.v.IsAddr() {
				switch op {
				case "CSINC":
					r.v = axiom.Int(trunc(r.v.N + 1))
				case "CSINV":
					r.v = axiom.Int(trunc(^r.v.N))
				case "CSNEG":
					r.v = axiom.Int(trunc(-r.v.N))
				}
			}
		}
		r.t = r.t.Merge(f.t)
		m.a64set(args[0].R, r)
		return true
	case "CSET", "CSETM":
		f := st.flags
		v := int64(0)
		if condHolds(args[1].Cond, f) {
			v = 1
			if op == "CSETM" {
				v = trunc(-1)
			}
		}
		m.a64set(args[0].R, reg{v: axiom.Int(v), t: f.t})
		return true
	case "CINC":
		a := m.a64reg(args[1].R)
		f := st.flags
		if condHolds(args[2].Cond, f) && !a.v.IsAddr() {
			a.v = axiom.Int(trunc(a.v.N + 1))
		}
		a.t = a.t.Merge(f.t)
		m.a64set(args[0].R, a)
		return true
	}
	if len(args) == 3 {
		a := m.a64reg(args[1].R)
		b := m.a64operand(args[2], width)
		t := a.t.Merge(b.t)
		var v axiom.Val
		switch op {
		case "ADD", "ADDS":
			switch {
			case a.v.IsAddr() && !b.v.IsAddr():
				v = addVal(a.v, b.v.N)
			case b.v.IsAddr() && !a.v.IsAddr():
				v = addVal(b.v, a.v.N)
			case a.v.IsAddr():
				m.dead = true
				return true
			default:
				v = axiom.Int(trunc(a.v.N + b.v.N))
			}
			if op == "ADDS" {
				st.flags = subFlags(a.v.N, -b.v.N, width, t)
			}
		case "SUB", "SUBS":
			switch {
			case a.v.IsAddr() && b.v.IsAddr() && a.v.Sym == b.v.Sym:
				v = axiom.Int(a.v.N - b.v.N)
			case a.v.IsAddr() && !b.v.IsAddr():
				v = addVal(a.v, -b.v.N)
			case a.v.IsAddr() || b.v.IsAddr():
				m.dead = true
				return true
			default:
				v = axiom.Int(trunc(a.v.N - b.v.N))
			}
			if op == "SUBS" {
				st.flags = subFlags(a.v.N, b.v.N, width, t)
			}
		default:
			if a.v.IsAddr() || b.v.IsAddr() {
				// herd computes x EOR x = 0 and x AND 0 = 0 on
				// symbolic addresses too.
				if a.v == b.v && (op == "EOR" || op == "SUB") {
					v = axiom.Int(0)
					break
				}
				m.dead = true
				return true
			}
			x, y := a.v.N, b.v.N
			var r int64
			switch op {
			case "EOR":
				r = x ^ y
			case "EON":
				r = x ^ ^y
			case "ORR":
				r = x | y
			case "ORN":
				r = x | ^y
			case "AND", "ANDS":
				r = x & y
			case "BIC", "BICS":
				r = x &^ y
			case "LSL", "LSLV":
				r = x << uint(y&int64(width-1))
			case "LSR", "LSRV":
				r = shiftExtend(x, "LSR", y&int64(width-1), width)
			case "ASR", "ASRV":
				r = shiftExtend(x, "ASR", y&int64(width-1), width)
			case "ROR", "RORV":
				r = shiftExtend(x, "ROR", y&int64(width-1), width)
			case "MUL":
				r = x * y
			case "MNEG":
				r = -(x * y)
			default:
				return false
			}
			v = axiom.Int(trunc(r))
			if op == "ANDS" || op == "BICS" {
				st.flags = flagsVal{set: true, n: trunc(r)>>(width-1)&1 != 0, z: trunc(r) == 0, t: t}
			}
		}
		m.a64set(args[0].R, reg{v: v, t: t})
		return true
	}
	return false
}

// subFlags returns NZCV after computing a - b on width bits.
func subFlags(a, b int64, width int, t axiom.Taint) flagsVal {
	if width == 32 {
		x, y := uint32(a), uint32(b)
		r := x - y
		return flagsVal{set: true, n: int32(r) < 0, z: r == 0, c: x >= y,
			v: (int32(x) < 0) != (int32(y) < 0) && (int32(r) < 0) != (int32(x) < 0), t: t}
	}
	x, y := uint64(a), uint64(b)
	r := x - y
	return flagsVal{set: true, n: int64(r) < 0, z: r == 0, c: x >= y,
		v: (int64(x) < 0) != (int64(y) < 0) && (int64(r) < 0) != (int64(x) < 0), t: t}
}

// a64Size returns the size in bytes of a memory instruction's accesses:
// from a B or H suffix, else from the width of its data register.
func a64Size(op string, args []*litmus.Operand) int {
	mem := -1
	for i, a := range args {
		if a.Kind == litmus.OpdMem {
			mem = i
		}
	}
	if mem <= 0 {
		return 0
	}
	switch {
	case op == "LDRSB" || strings.HasSuffix(op, "B") && op != "SUB":
		return 1
	case op == "LDRSH" || strings.HasSuffix(op, "H"):
		return 2
	case op == "LDRSW":
		return 4
	}
	// The data register: the one just before the memory operand.
	if r := args[mem-1].R; r != nil {
		return r.Width / 8
	}
	return 0
}
