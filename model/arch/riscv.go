package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// RISCV follows herd7's RISC-V semantics (herd/RISCVSem.ml): RV64I with
// the A extension. Tags: Acq, Rel, AcqRel (the .aq, .rl and .aq.rl
// annotations), X (LR/SC and AMOs), AMO (both events of an AMO), and one
// set per fence: Fence.r.r ... Fence.rw.rw, Fence.tso and Fence.i.

var riscvVocab = func() []string {
	v := []string{"Acq", "Rel", "AcqRel", "Sc", "X", "AMO", "Fence.tso", "Fence.i", "BCC"}
	for _, p := range []string{"r", "w", "rw"} {
		for _, s := range []string{"r", "w", "rw"} {
			v = append(v, "Fence."+p+"."+s)
		}
	}
	return v
}()

var riscvTags = newTagSet(riscvVocab)

func init() { archs[litmus.ArchRISCV] = func() semantics { return riscv{} } }

type riscv struct{}

func (riscv) vocab() []string { return riscvVocab }

func (riscv) canon(name string) string {
	r, ok := litmus.ArchRegister(litmus.ArchRISCV, name)
	if !ok {
		return ""
	}
	return r.Name
}

// riscvPath is the reservation an LR leaves for the SC after it (herd's
// hidden register RESADDR).
type riscvPath struct {
	resRead int // the LR's read, -1 when none
	resAddr axiom.Val
}

func (m *machine) rv() *riscvPath {
	if m.state == nil {
		m.state = &riscvPath{resRead: -1}
	}
	return m.state.(*riscvPath)
}

func (m *machine) rvreg(r *litmus.Register) reg {
	if r.Name == "x0" {
		return reg{}
	}
	return m.get(r.Name)
}

func (m *machine) rvset(r *litmus.Register, v reg) {
	if r.Name != "x0" {
		m.set(r.Name, v)
	}
}

func (m *machine) rvaddr(o *litmus.Operand) reg {
	b := m.rvreg(&o.Mem.Base)
	b.v = addVal(b.v, o.Mem.Offset)
	return b
}

// rvOrder returns the tags of an access's annotation suffix. (herd's
// lexer reads lr.w.rl as lr.w and sc.w.aq as sc.w: the callers drop
// those suffixes first.)

// rvLR drops the .rl of an LR (not that of .aq.rl), as herd's lexer does.
func rvLR(op string) string {
	if strings.HasSuffix(op, ".aq.rl") {
		return op
	}
	return strings.TrimSuffix(op, ".rl")
}
func rvOrder(op string) axiom.Tags {
	switch {
	case strings.HasSuffix(op, ".aq.rl"):
		return riscvTags.of("AcqRel")
	case strings.HasSuffix(op, ".aq"):
		return riscvTags.of("Acq")
	case strings.HasSuffix(op, ".rl"):
		return riscvTags.of("Rel")
	}
	return 0
}

func (riscv) exec(m *machine, in *litmus.Instr) string {
	op := in.Mnemonic
	args := in.Args
	base := strings.SplitN(op, ".", 2)[0]
	switch {
	case op == "nop":
		return ""
	case op == "fence.i":
		// herd emits a fence event in its own set, which no RISC-V
		// model orders anything with (it is still a ctrl target).
		m.fence(riscvTags.of("Fence.i"))
		return ""
	case op == "fence.tso":
		m.fence(riscvTags.of("Fence.tso"))
		return ""
	case op == "fence":
		p, s := "rw", "rw"
		if len(args) == 2 {
			p, s = fenceBits(args[0].Fence), fenceBits(args[1].Fence)
		}
		if p == "" || s == "" {
			// fence i,o and the like order no memory access.
			m.fence(0)
			return ""
		}
		m.fence(riscvTags.of("Fence." + p + "." + s))
		return ""
	case op == "j":
		return args[0].Label
	case base == "beq" || base == "bne" || base == "blt" || base == "bge" || base == "bltu" || base == "bgeu":
		a, b := m.rvreg(args[0].R), m.rvreg(args[1].R)
		m.branch(a.t.Merge(b.t), riscvTags.of("BCC"))
		if compareHolds(op, a.v, b.v) {
			return args[2].Label
		}
		return ""
	case base == "lr":
		a := m.rvaddr(args[1])
		v, i := m.load(a, riscvTags.of("X")|rvOrder(rvLR(op)))
		if i < 0 {
			return ""
		}
		m.rv().resRead, m.rv().resAddr = i, a.v
		m.rvset(args[0].R, reg{v: v, t: axiom.Taint{i}})
		return ""
	case base == "sc":
		v := m.rvreg(args[1].R)
		a := m.rvaddr(args[2])
		st := m.rv()
		// An SC may always fail; it can succeed only paired with the
		// last LR-or-SC before it, an LR of the same address.
		if st.resRead >= 0 && st.resAddr == a.v && m.choose(2) == 0 {
			if m.stopped() {
				return ""
			}
			w := m.store(a, v, riscvTags.of("X")|rvOrder(strings.TrimSuffix(op, ".aq")), st.resRead)
			// herd: the result register depends on the address and on
			// the write itself.
			m.rvset(args[0].R, reg{v: axiom.Int(0), t: a.t.Merge(axiom.Taint{w})})
		} else {
			if m.stopped() {
				return ""
			}
			m.rvset(args[0].R, reg{v: axiom.Int(1)})
		}
		st.resRead = -1
		return ""
	case strings.HasPrefix(op, "amo"):
		// amo<op>.{w,d}[.aq][.rl] rd, rs2, (rs1)
		o := strings.TrimPrefix(base, "amo")
		s := m.rvreg(args[1].R)
		a := m.rvaddr(args[2])
		ord := rvOrder(op)
		// herd annotates an AMO X mo, like LR and SC: it is in X too.
		amo := riscvTags.of("AMO", "X")
		// herd annotates both events of an AMO with its ordering.
		rtags, wtags := amo|ord, amo|ord
		// herd's AMO is one event both read and write, whose address
		// depends on rs1 and rs2 and whose data on rs2; here it is a
		// read and a write paired by rmw, with the same dependencies.
		a.t = a.t.Merge(s.t)
		old, i := m.load(a, rtags)
		if i < 0 {
			return ""
		}
		nv := reg{v: rvAmo(o, old, s.v), t: s.t}
		m.store(a, nv, wtags, i)
		m.rvset(args[0].R, reg{v: old, t: axiom.Taint{i}})
		return ""
	case op[0] == 'l' && len(args) == 2 && args[1].Kind == litmus.OpdMem:
		a := m.rvaddr(args[1])
		v, i := m.load(a, rvOrder(op))
		if i < 0 {
			return ""
		}
		// herd's loads neither extend nor truncate.
		m.rvset(args[0].R, reg{v: v, t: axiom.Taint{i}})
		return ""
	case op[0] == 's' && len(args) == 2 && args[1].Kind == litmus.OpdMem:
		v := m.rvreg(args[0].R)
		a := m.rvaddr(args[1])
		m.store(a, v, rvOrder(op), -1)
		return ""
	}
	if m.rvalu(in, op, args) {
		return ""
	}
	m.fail(in.Pos(), "%s is not supported by the RISC-V semantics", in.Op)
	return ""
}

// fenceBits keeps the memory part (r, w) of a fence set.
func fenceBits(s string) string {
	out := ""
	if strings.Contains(s, "r") {
		out += "r"
	}
	if strings.Contains(s, "w") {
		out += "w"
	}
	return out
}

// compareHolds evaluates a RISC-V branch condition.
func compareHolds(op string, a, b axiom.Val) bool {
	switch op {
	case "beq":
		return a == b
	case "bne":
		return a != b
	}
	if a.IsAddr() || b.IsAddr() {
		return false
	}
	switch op {
	case "blt":
		return a.N < b.N
	case "bge":
		return a.N >= b.N
	case "bltu":
		return uint64(a.N) < uint64(b.N)
	case "bgeu":
		return uint64(a.N) >= uint64(b.N)
	}
	return false
}

func rvAmo(op string, old, s axiom.Val) axiom.Val {
	if op == "swap" {
		return s
	}
	if old.IsAddr() || s.IsAddr() {
		if op == "add" && old.IsAddr() && !s.IsAddr() {
			return addVal(old, s.N)
		}
		return old
	}
	a, b := old.N, s.N
	var r int64
	switch op {
	case "add":
		r = a + b
	case "and":
		r = a & b
	case "or":
		r = a | b
	case "xor":
		r = a ^ b
	case "max":
		r = max(a, b)
	case "min":
		r = min(a, b)
	case "maxu":
		if uint64(a) > uint64(b) {
			r = a
		} else {
			r = b
		}
	case "minu":
		if uint64(a) < uint64(b) {
			r = a
		} else {
			r = b
		}
	}
	return axiom.Int(r)
}

// rvALU maps the arithmetic mnemonics to their operation.
var rvALU = func() map[string]string {
	m := map[string]string{}
	for _, op := range []string{"add", "sub", "and", "or", "xor", "sll", "srl", "sra", "slt", "sltu"} {
		m[op] = op
	}
	for _, op := range []string{"add", "and", "or", "xor", "sll", "srl", "sra", "slt", "sltu"} {
		m[op+"i"] = op
	}
	m["sltiu"] = "sltu"
	for _, op := range []string{"add", "sub", "sll", "srl", "sra"} {
		m[op+"w"] = op
	}
	for _, op := range []string{"add", "sll", "srl", "sra"} {
		m[op+"iw"] = op
	}
	return m
}()

// rvalu executes register moves and arithmetic.
func (m *machine) rvalu(in *litmus.Instr, op string, args []*litmus.Operand) bool {
	switch op {
	case "li":
		m.rvset(args[0].R, reg{v: axiom.Int(args[1].Imm)})
		return true
	case "lui":
		m.rvset(args[0].R, reg{v: axiom.Int(args[1].Imm << 12)})
		return true
	case "la":
		i, ok := m.th.p.index[args[1].Sym]
		if !ok {
			m.fail(in.Pos(), "unknown location %s", args[1].Sym)
			return true
		}
		m.rvset(args[0].R, reg{v: axiom.Addr(i)})
		return true
	case "mv":
		m.rvset(args[0].R, m.rvreg(args[1].R))
		return true
	case "sext.w":
		r := m.rvreg(args[1].R)
		if !r.v.IsAddr() {
			r.v = axiom.Int(int64(int32(r.v.N)))
		}
		m.rvset(args[0].R, r)
		return true
	}
	if len(args) != 3 {
		return false
	}
	a := m.rvreg(args[1].R)
	var b reg
	if args[2].Kind == litmus.OpdImm {
		b = reg{v: axiom.Int(args[2].Imm)}
	} else {
		b = m.rvreg(args[2].R)
	}
	t := a.t.Merge(b.t)
	name, ok := rvALU[op]
	if !ok {
		return false
	}
	// herd computes the *w operations on the full 64-bit values.
	word := false
	var v axiom.Val
	switch {
	case name == "add" && (a.v.IsAddr() || b.v.IsAddr()):
		if a.v.IsAddr() && b.v.IsAddr() {
			m.dead = true
			return true
		}
		if a.v.IsAddr() {
			v = addVal(a.v, b.v.N)
		} else {
			v = addVal(b.v, a.v.N)
		}
	case (name == "xor" || name == "sub") && a.v.IsAddr() && a.v == b.v:
		v = axiom.Int(0)
	case (name == "xor" || name == "or" || name == "sub") && a.v.IsAddr() && b.v == axiom.Int(0):
		v = a.v // x^0, x|0 and x-0 are x, an address too
	case (name == "xor" || name == "or") && b.v.IsAddr() && a.v == axiom.Int(0):
		v = b.v
	case name == "sltu" && a.v == axiom.Int(0) && b.v.IsAddr():
		v = axiom.Int(1) // snez of an address: no object is at address 0
	case name == "sub" && a.v.IsAddr() && !b.v.IsAddr():
		v = addVal(a.v, -b.v.N)
	case a.v.IsAddr() || b.v.IsAddr():
		m.dead = true
		return true
	default:
		x, y := a.v.N, b.v.N
		var r int64
		switch name {
		case "add":
			r = x + y
		case "sub":
			r = x - y
		case "and":
			r = x & y
		case "or":
			r = x | y
		case "xor":
			r = x ^ y
		case "sll":
			r = x << uint(y&63)
		case "srl":
			if word {
				r = int64(uint32(x) >> uint(y&31))
			} else {
				r = int64(uint64(x) >> uint(y&63))
			}
		case "sra":
			if word {
				r = int64(int32(x) >> uint(y&31))
			} else {
				r = x >> uint(y&63)
			}
		case "slt":
			if x < y {
				r = 1
			}
		case "sltu":
			if uint64(x) < uint64(y) {
				r = 1
			}
		default:
			return false
		}
		if word {
			r = int64(int32(r))
		}
		v = axiom.Int(r)
	}
	m.rvset(args[0].R, reg{v: v, t: t})
	return true
}
