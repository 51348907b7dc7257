package arch

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// a64alu is the data path of one AArch64 instruction: the machine, the
// thread's flags and the operation's width (32 for W registers).
type a64alu struct {
	m     *machine
	st    *aarch64Path
	width int
}

// trunc keeps the low 32 bits of a W register's result.
func (x a64alu) trunc(v int64) int64 {
	if x.width == 32 {
		return int64(uint32(v))
	}
	return v
}

// setFlags sets NZCV from result r (whose dependencies are t).
func (x a64alu) setFlags(r int64, t reg, carry, overflow bool) {
	r = x.trunc(r)
	x.st.nzcv = flagsVal{n: r>>(uint(x.width)-1)&1 != 0, z: r == 0, c: carry, v: overflow, r: t}
}

// a64data executes moves, arithmetic, comparisons and selections.
func (m *machine) a64data(op string, args []*litmus.Operand, st *aarch64Path) bool {
	width := 64
	if len(args) > 0 && args[0].R != nil {
		width = args[0].R.Width
	}
	x := a64alu{m: m, st: st, width: width}
	switch op {
	case "MOV", "MOVZ", "MOVN", "MOVK", "ADR", "SXTW", "MVN", "NEG", "NEGS", "CMP", "CMN", "TST", "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM", "CINC":
		return x.unary(op, args)
	}
	return x.binary(op, args)
}

// unary executes the moves, the one-operand arithmetic, the comparisons
// and the selections.
func (x a64alu) unary(op string, args []*litmus.Operand) bool {
	m, st, width, trunc, setFlags := x.m, x.st, x.width, x.trunc, x.setFlags
	switch op {
	case "MOV":
		v := m.a64operand(args[1], width)
		m.a64set(args[0].R, v)
		return true
	case "MOVZ", "MOVN":
		v := args[1].Imm << uint(args[1].Amount)
		if op == "MOVN" {
			// herd does not mask MOVN's result to a W register.
			m.a64setRaw(args[0].R, reg{v: axiom.Int(^v), known: true})
			return true
		}
		m.a64set(args[0].R, reg{v: axiom.Int(trunc(v)), known: true})
		return true
	case "MOVK":
		old := m.a64reg(args[0].R)
		sh := uint(args[1].Amount)
		v := old.v.N&^(0xffff<<sh) | (args[1].Imm&0xffff)<<sh
		old.v = axiom.Int(trunc(v))
		m.a64set(args[0].R, old)
		return true
	case "ADR":
		m.a64set(args[0].R, reg{v: axiom.Int(0), known: true})
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
		out := r
		out.v = axiom.Int(trunc(v))
		m.a64set(args[0].R, out)
		if op == "NEGS" {
			c, o := subCarry(0, r.v.N, width)
			setFlags(-r.v.N, r, c, o)
		}
		return true
	case "CMP", "CMN", "TST":
		a := m.a64reg(args[0].R)
		b := m.a64operand(args[1], width)
		t := join(a, b)
		switch {
		case op == "TST":
			setFlags(a.v.N&b.v.N, t, false, false)
		case a.v.IsAddr() || b.v.IsAddr():
			st.nzcv = flagsVal{z: a.v == b.v, c: true, r: t}
		case op == "CMN":
			c, o := subCarry(a.v.N, -b.v.N, width)
			setFlags(a.v.N+b.v.N, t, c, o)
		default:
			c, o := subCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N-b.v.N, t, c, o)
		}
		return true
	case "CSEL", "CSINC", "CSINV", "CSNEG":
		// Only the chosen source is read: its taint, plus the flags'
		// as a pick dependency.
		f := st.nzcv
		var src reg
		if condHolds(args[3].Cond, f) {
			src = m.a64reg(args[1].R)
		} else {
			src = m.a64reg(args[2].R)
			if !src.v.IsAddr() {
				switch op {
				case "CSINC":
					src.v = axiom.Int(trunc(src.v.N + 1))
				case "CSINV":
					src.v = axiom.Int(trunc(^src.v.N))
				case "CSNEG":
					src.v = axiom.Int(trunc(-src.v.N))
				}
			}
		}
		m.a64set(args[0].R, reg{v: src.v, t: src.t, p: src.p.Merge(f.r.p), known: false})
		return true
	case "CSET", "CSETM":
		// herd reads CSET Rd,cond as CSEL Rd,ZR,ZR,inverse(cond) with
		// an increment (CSETM: an inversion), its inverse_cond's quirks
		// included (herdInverse).
		f := st.nzcv
		v := int64(0)
		if !condHolds(herdInverse(args[1].Cond), f) {
			v = 1
			if op == "CSETM" {
				v = trunc(-1)
			}
		}
		m.a64set(args[0].R, reg{v: axiom.Int(v), p: f.r.p, known: false})
		return true
	case "CINC":
		// CINC Rd,Rn,cond is herd's CSINC Rd,Rn,Rn,inverse(cond).
		a := m.a64reg(args[1].R)
		f := st.nzcv
		if !condHolds(herdInverse(args[2].Cond), f) && !a.v.IsAddr() {
			a.v = axiom.Int(trunc(a.v.N + 1))
		}
		m.a64set(args[0].R, reg{v: a.v, t: a.t, p: a.p.Merge(f.r.p), known: false})
		return true
	}
	return false
}

// binary executes the three-operand arithmetic and logic: ADD, SUB and
// the rest, with their flag-setting forms.
func (x a64alu) binary(op string, args []*litmus.Operand) bool {
	m, width, trunc, setFlags := x.m, x.width, x.trunc, x.setFlags
	if len(args) != 3 {
		return false
	}
	a := m.a64reg(args[1].R)
	var b reg
	if args[2].Kind == litmus.OpdReg && args[1].R != nil && args[2].R.Name == args[1].R.Name {
		b = a // the same register, read once
	} else {
		b = m.a64operand(args[2], width)
	}
	t := join(a, b)
	var v axiom.Val
	switch op {
	case "ADD", "ADDS":
		if a.v.IsAddr() || b.v.IsAddr() {
			var ok bool
			if v, ok = addrAdd(a.v, b.v); !ok {
				m.dead = true
				return true
			}
		} else {
			v = axiom.Int(trunc(a.v.N + b.v.N))
		}
		if op == "ADDS" {
			c, o := addCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N+b.v.N, t, c, o)
		}
	case "SUB", "SUBS":
		if a.v.IsAddr() || b.v.IsAddr() {
			var ok bool
			if v, ok = addrSub(a.v, b.v); !ok {
				m.dead = true
				return true
			}
		} else {
			v = axiom.Int(trunc(a.v.N - b.v.N))
		}
		if op == "SUBS" {
			c, o := subCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N-b.v.N, t, c, o)
		}
	default:
		if a.v.IsAddr() || b.v.IsAddr() {
			// herd computes x EOR x = 0 on a symbolic address too.
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
			// herd shifts on 64 bits by the amount masked to the
			// register's width, then masks a W result.
			r = x << uint(y&int64(width-1)&63)
		case "LSR", "LSRV":
			r = int64(uint64(x) >> uint(y&int64(width-1)&63))
		case "ASR", "ASRV":
			if width == 32 {
				r = int64(int32(x) >> uint(y&31))
			} else {
				r = x >> uint(y&63)
			}
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
			setFlags(r, t, false, false)
		}
	}
	t.v = v
	m.a64set(args[0].R, t)
	return true
}

// addCarry returns the C and V flags of a + b on width bits, as the Arm
// ARM's AddWithCarry computes them with carry-in 0: C is the unsigned
// carry out, V the signed overflow. (Not subCarry(a, -b): that gives C
// wrong when b is 0 and V wrong when b is the most negative value.)
func addCarry(a, b int64, width int) (carry, overflow bool) {
	if width == 32 {
		x, y := uint32(a), uint32(b)
		r := x + y
		return r < x, (int32(x) < 0) == (int32(y) < 0) && (int32(r) < 0) != (int32(x) < 0)
	}
	x, y := uint64(a), uint64(b)
	r := x + y
	return r < x, (int64(x) < 0) == (int64(y) < 0) && (int64(r) < 0) != (int64(x) < 0)
}

// subCarry returns the C and V flags of a - b on width bits, as
// AddWithCarry(a, NOT b, 1) computes them: C is set when no borrow occurs.
func subCarry(a, b int64, width int) (carry, overflow bool) {
	if width == 32 {
		x, y := uint32(a), uint32(b)
		r := x - y
		return x >= y, (int32(x) < 0) != (int32(y) < 0) && (int32(r) < 0) != (int32(x) < 0)
	}
	x, y := uint64(a), uint64(b)
	r := x - y
	return x >= y, (int64(x) < 0) != (int64(y) < 0) && (int64(r) < 0) != (int64(x) < 0)
}
