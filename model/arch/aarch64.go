package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// AArch64 follows herd7 7.58's AArch64 semantics (herd/AArch64Sem.ml) for
// the user-level instruction set, explicit accesses only, as
// docs/semantics.md describes instruction by instruction.
//
// Tags are herd's annotation sets: X (every exclusive and atomic access,
// NoRet reads included), A (acquire: LDAR, LDAXR, the A forms of the
// atomics), Q (acquire-PC: LDAPR), L (release: STLR, STLXR, the L forms),
// NoRet (the read of an atomic whose result goes to the zero register),
// the barrier sets DMB.<opt>, DSB.<opt>, ISB, Exp (explicit accesses:
// every access here), and BCC (conditional branches).
//
// Dependencies follow aarch64deps.cat: herd computes them in the model
// from register events; here every register carries two sets of reads,
// its dtrm taint (addr, data, ctrl) and its pick-dtrm taint (the pick-*
// relations, which also follow CAS comparisons, CSEL and the exclusive
// reservation), and a read also depends on what flowed into the
// thread's last write of its location (herd's lrs).

var aarch64Barriers = strings.Fields("SY ST LD ISH ISHST ISHLD OSH OSHST OSHLD NSH NSHST NSHLD")

var aarch64Vocab = func() []string {
	v := []string{"A", "Q", "L", "X", "NoRet", "Exp", "BCC", "ISB"}
	for _, b := range aarch64Barriers {
		v = append(v, "DMB."+b, "DSB."+b)
	}
	return v
}()

var aarch64Tags = newTagSet(aarch64Vocab)

var (
	tagExp   = aarch64Tags.of("Exp")
	tagX     = aarch64Tags.of("X")
	tagA     = aarch64Tags.of("A")
	tagQ     = aarch64Tags.of("Q")
	tagL     = aarch64Tags.of("L")
	tagNoRet = aarch64Tags.of("NoRet")
	tagBCC   = aarch64Tags.of("BCC")
)

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

// aarch64Path is the architecture state of one path.
type aarch64Path struct {
	// The reservation of the last exclusive load: herd's RES register
	// (the address, with its taints) and lx_sz (the access size; 0 when
	// an exclusive store reset it).
	res     reg
	resSize int
	// exclRead is the last exclusive load's read, lastAtomic the last
	// event in herd's X set: a successful exclusive store pairs with
	// exclRead in rmw only when no atomic event came between.
	exclRead, lastAtomic int
	nzcv                 flagsVal
}

// flagsVal is NZCV as the last flag-setting instruction left it.
type flagsVal struct {
	n, z, c, v bool
	r          reg // the taints, and whether the value is known
}

func (m *machine) a64() *aarch64Path {
	if m.state == nil {
		m.state = &aarch64Path{exclRead: -1, lastAtomic: -1}
	}
	return m.state.(*aarch64Path)
}

// a64reg reads a register operand: the zero register reads 0 and carries
// nothing; a W register gives its low 32 bits.
func (m *machine) a64reg(r *litmus.Register) reg {
	if r.Name == "XZR" {
		return reg{known: true}
	}
	v := m.get(r.Name)
	if r.Width == 32 && !v.v.IsAddr() {
		v.v = axiom.Int(int64(uint32(v.v.N)))
	}
	return v
}

// a64full reads a whole 64-bit register whatever the operand's width
// (CBZ, TBZ: herd tests all 64 bits).
func (m *machine) a64full(r *litmus.Register) reg {
	if r.Name == "XZR" {
		return reg{known: true}
	}
	return m.get(r.Name)
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

// a64setRaw writes a register without the W-register masking (herd's
// MOVN and SBFM on W registers).
func (m *machine) a64setRaw(r *litmus.Register, v reg) {
	if r.Name != "XZR" {
		m.set(r.Name, v)
	}
}

// join merges the taints of registers read together.
func join(rs ...reg) reg {
	out := reg{known: true}
	for _, r := range rs {
		out.t = out.t.Merge(r.t)
		out.p = out.p.Merge(r.p)
		out.known = out.known && r.known
	}
	return out
}

// a64operand reads a register, shifted register, extended register or
// immediate operand.
func (m *machine) a64operand(o *litmus.Operand, width int) reg {
	switch o.Kind {
	case litmus.OpdImm:
		v := o.Imm
		if o.Shift == "LSL" {
			v <<= uint(o.Amount)
		}
		return reg{v: axiom.Int(v), known: true}
	case litmus.OpdReg:
		return m.a64reg(o.R)
	case litmus.OpdShiftedReg, litmus.OpdExtendedReg:
		r := m.a64reg(o.R)
		if r.v.IsAddr() {
			if o.Amount == 0 && (o.Shift == "LSL" || o.Shift == "UXTX" || o.Shift == "SXTX") {
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
			x = int64(u>>(a&31) | u<<((32-a)&31))
		} else {
			u := uint64(x)
			x = int64(u>>(a&63) | u<<((64-a)&63))
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

// a64address computes a memory operand's address, with the taints of
// the registers it reads, and applies its writeback (the base keeps its
// own taints).
func (m *machine) a64address(o *litmus.Operand) reg {
	mem := o.Mem
	base := m.a64reg(&mem.Base)
	a := base
	switch {
	case mem.Index != nil:
		idx := m.a64reg(mem.Index)
		off := idx.v.N
		if idx.v.IsAddr() {
			if a.v.IsAddr() {
				m.dead = true
				return reg{}
			}
			off = a.v.N
			a.v = idx.v
		} else if mem.Extend != "" {
			off = shiftExtend(off, mem.Extend, mem.Amount, 64)
		} else {
			off <<= uint(mem.Amount)
		}
		a = reg{v: addVal(a.v, off), t: base.t.Merge(idx.t), p: base.p.Merge(idx.p)}
	case mem.Mode != litmus.AddrPostIndex:
		a.v = addVal(a.v, mem.Offset)
	}
	if mem.Mode != litmus.AddrOffset {
		m.a64set(&mem.Base, reg{v: addVal(base.v, mem.Offset), t: base.t, p: base.p})
	}
	return a
}

// mask keeps the low size bytes of an integer (herd's loads and stores
// of size bytes).
func mask(v axiom.Val, size int) axiom.Val {
	if v.IsAddr() || size == 0 || size >= 8 {
		return v
	}
	return axiom.Int(v.N & (1<<(8*uint(size)) - 1))
}

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
		f := st.nzcv
		m.pbranch(f.r, tagBCC)
		m.count = !f.r.known
		if condHolds(op[2:], f) {
			return args[0].Label
		}
		return ""
	case op == "CBZ" || op == "CBNZ":
		r := m.a64full(args[0].R)
		m.pbranch(r, tagBCC)
		m.count = !r.known
		zero := !r.v.Truth()
		if zero == (op == "CBZ") {
			return args[1].Label
		}
		return ""
	case op == "TBZ" || op == "TBNZ":
		r := m.a64full(args[0].R)
		m.pbranch(r, tagBCC)
		m.count = !r.known
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
	if m.a64memory(op, args, st) {
		return ""
	}
	if m.a64data(op, args, st) {
		return ""
	}
	m.fail(in.Pos(), "%s is not supported by the AArch64 semantics", in.Op)
	return ""
}

// condHolds evaluates a condition code on the flags.
// herdInverse is herd 7.58's inverse_cond (lib/AArch64Base.ml), with
// which its parser reads CSET, CSETM and CINC as CSEL forms: the inverse
// of AL is AL (so CINC Rd,Rn,AL is Rn and CSET Rd,AL is 0), and the
// inverse of GE is GT, not LT.
func herdInverse(cond string) string {
	switch cond {
	case "NE":
		return "EQ"
	case "EQ":
		return "NE"
	case "LE":
		return "GT"
	case "LT":
		return "GE"
	case "GE":
		return "GT"
	case "GT":
		return "LE"
	case "CS", "HS":
		return "CC"
	case "CC", "LO":
		return "CS"
	case "MI":
		return "PL"
	case "PL":
		return "MI"
	case "VS":
		return "VC"
	case "VC":
		return "VS"
	case "HI":
		return "LS"
	case "LS":
		return "HI"
	}
	return "AL"
}

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
