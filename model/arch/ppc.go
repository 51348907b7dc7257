package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// PPC follows herd7's POWER semantics (herd/PPCSem.ml). Tags: the fences
// SYNC, LWSYNC, EIEIO and ISYNC, and X for lwarx/stwcx.

var ppcVocab = []string{"SYNC", "LWSYNC", "EIEIO", "ISYNC", "X", "BCC"}

var ppcTags = newTagSet(ppcVocab)

func init() { archs[litmus.ArchPPC] = func() semantics { return ppc{} } }

type ppc struct{}

func (ppc) vocab() []string { return ppcVocab }

func (ppc) canon(name string) string {
	r, ok := litmus.ArchRegister(litmus.ArchPPC, name)
	if !ok {
		return ""
	}
	return r.Name
}

// ppcPath is a path's condition register fields and reservation: herd's
// hidden registers RES (a lwarx is pending, resRead >= 0) and RESADDR,
// with the reads they depend on.
type ppcPath struct {
	cr      [8]crField
	resRead int
	resAddr axiom.Val
	resT    axiom.Taint // taint of RES and RESADDR
}

// crField is one condition register field: lt, gt, eq, with the reads it
// depends on.
type crField struct {
	lt, gt, eq bool
	t          axiom.Taint
}

func (m *machine) ppc() *ppcPath {
	if m.state == nil {
		m.state = &ppcPath{resRead: -1}
	}
	return m.state.(*ppcPath)
}

func (m *machine) ppcreg(r *litmus.Register) reg { return m.get(r.Name) }

// ppcaddr computes a memory operand's address. herd reads the base as
// the value 0 when it is r0 only in the indexed forms ((RA|0) + RB); a
// D-form base r0 is the register (docs/semantics.md).
func (m *machine) ppcaddr(o *litmus.Operand) reg {
	if o.Mem.Index != nil {
		var b reg
		if o.Mem.Base.Name != "r0" {
			b = m.ppcreg(&o.Mem.Base)
		}
		x := m.ppcreg(o.Mem.Index)
		switch {
		case b.v.IsAddr() && x.v.IsAddr():
			m.dead = true
			return reg{}
		case x.v.IsAddr():
			b, x = x, b
		}
		return reg{v: addVal(b.v, x.v.N), t: b.t.Merge(x.t)}
	}
	b := m.ppcreg(&o.Mem.Base)
	b.v = addVal(b.v, o.Mem.Offset)
	return b
}

func (ppc) exec(m *machine, in *litmus.Instr) string {
	op := in.Mnemonic
	args := in.Args
	st := m.ppc()
	switch op {
	case "nop":
		return ""
	case "sync", "lwsync", "eieio", "isync":
		m.fence(ppcTags.of(strings.ToUpper(op)))
		return ""
	case "b":
		return args[0].Label
	case "beq", "bne", "blt", "bge", "bgt", "ble":
		f := st.cr[0]
		m.branch(f.t, ppcTags.of("BCC"))
		var taken bool
		switch op {
		case "beq":
			taken = f.eq
		case "bne":
			taken = !f.eq
		case "blt":
			taken = f.lt
		case "bge":
			taken = !f.lt
		case "bgt":
			taken = f.gt
		case "ble":
			taken = !f.gt
		}
		if taken {
			return args[0].Label
		}
		return ""
	case "lbz", "lhz", "lwz", "ld", "lwa", "lwzu", "lbzx", "lhzx", "lwzx", "ldx", "lwax", "stb", "sth", "stw", "std", "stwu", "stbx", "sthx", "stwx", "stdx", "lwarx", "ldarx", "stwcx.", "stdcx.":
		m.ppcmemory(op, args, st)
		return ""
	case "cmpw", "cmpd", "cmpwi", "cmpdi", "cmplwi":
		field := 0
		if len(args) == 3 {
			field = int(args[0].R.Name[2] - '0')
			args = args[1:]
		}
		a := m.ppcreg(args[0].R)
		var b reg
		if args[1].Kind == litmus.OpdImm {
			b = reg{v: axiom.Int(args[1].Imm)}
		} else {
			b = m.ppcreg(args[1].R)
		}
		f := crField{t: a.t.Merge(b.t)}
		switch {
		case a.v.IsAddr() || b.v.IsAddr():
			f.eq = a.v == b.v
		case op == "cmplwi":
			x, y := uint32(a.v.N), uint32(b.v.N&0xffff)
			f.lt, f.gt, f.eq = x < y, x > y, x == y
		default:
			// herd compares the full 64-bit values, cmpw included.
			f.lt, f.gt, f.eq = a.v.N < b.v.N, a.v.N > b.v.N, a.v.N == b.v.N
		}
		st.cr[field] = f
		return ""
	case "li":
		m.set(args[0].R.Name, reg{v: axiom.Int(args[1].Imm)})
		return ""
	case "mfcr":
		f := st.cr[0]
		v := int64(0)
		switch {
		case f.lt:
			v = 8
		case f.gt:
			v = 4
		case f.eq:
			v = 2
		}
		m.set(args[0].R.Name, reg{v: axiom.Int(v), t: f.t})
		return ""
	case "lis":
		m.set(args[0].R.Name, reg{v: axiom.Int(args[1].Imm << 16)})
		return ""
	case "mr":
		m.set(args[0].R.Name, m.ppcreg(args[1].R))
		return ""
	case "extsw":
		r := m.ppcreg(args[1].R)
		if !r.v.IsAddr() {
			r.v = axiom.Int(int64(int32(r.v.N)))
		}
		m.set(args[0].R.Name, r)
		return ""
	case "rlwinm", "rlwimi", "clrldi":
		a := m.ppcreg(args[1].R)
		d := m.ppcreg(args[0].R)
		if a.v.IsAddr() || (op == "rlwimi" && d.v.IsAddr()) {
			m.dead = true
			return ""
		}
		x := uint64(a.v.N)
		var r reg
		switch op {
		case "clrldi":
			r = reg{v: axiom.Int(int64(x & ppcMask(int(args[2].Imm), 63))), t: a.t}
		case "rlwinm":
			msk := ppcMask(int(args[3].Imm)+32, int(args[4].Imm)+32)
			r = reg{v: axiom.Int(int64(ppcRot32(x, args[2].Imm) & msk)), t: a.t}
		default:
			msk := ppcMask(int(args[3].Imm)+32, int(args[4].Imm)+32)
			v := ppcRot32(x, args[2].Imm)&msk | uint64(d.v.N)&^msk
			r = reg{v: axiom.Int(int64(v)), t: d.t.Merge(a.t)}
		}
		m.set(args[0].R.Name, r)
		return ""
	case "neg", "neg.":
		r := m.ppcreg(args[1].R)
		if r.v.IsAddr() {
			m.dead = true
			return ""
		}
		r.v = axiom.Int(-r.v.N)
		m.set(args[0].R.Name, r)
		if op == "neg." {
			st.cr[0] = crFrom(r)
		}
		return ""
	}
	if m.ppcalu(in, op, args, st) {
		return ""
	}
	m.fail(in.Pos(), "%s is not supported by the POWER semantics", in.Op)
	return ""
}

// ppcmemory executes the loads, the stores and the reservations (lwarx,
// stwcx.).
func (m *machine) ppcmemory(op string, args []*litmus.Operand, st *ppcPath) {
	switch op {
	case "lbz", "lhz", "lwz", "ld", "lwa", "lwzu", "lbzx", "lhzx", "lwzx", "ldx", "lwax":
		a := m.ppcaddr(args[1])
		if m.stopped() {
			return
		}
		base := m.ppcreg(&args[1].Mem.Base)
		v, i := m.load(a, 0)
		if i < 0 {
			return
		}
		// herd's loads neither truncate nor zero-extend; lwa and lwax
		// sign-extend from 32 bits.
		if (op == "lwa" || op == "lwax") && !v.IsAddr() {
			v = axiom.Int(int64(int32(v.N)))
		}
		m.set(args[0].R.Name, reg{v: v, t: axiom.Taint{i}})
		if op == "lwzu" && args[1].Mem.Base.Name != "r0" && args[1].Mem.Base.Name != args[0].R.Name {
			m.set(args[1].Mem.Base.Name, reg{v: a.v, t: base.t})
		}
	case "stb", "sth", "stw", "std", "stwu", "stbx", "sthx", "stwx", "stdx":
		v := m.ppcreg(args[0].R)
		a := m.ppcaddr(args[1])
		if m.stopped() {
			return
		}
		m.store(a, v, 0, -1)
		if op == "stwu" && args[1].Mem.Base.Name != "r0" {
			m.set(args[1].Mem.Base.Name, a)
		}
	case "lwarx", "ldarx":
		a := m.ppcaddr(args[1])
		if m.stopped() {
			return
		}
		v, i := m.load(a, ppcTags.of("X"))
		if i < 0 {
			return
		}
		st.resRead, st.resAddr, st.resT = i, a.v, a.t
		m.set(args[0].R.Name, reg{v: v, t: axiom.Taint{i}})
	case "stwcx.", "stdcx.":
		// Every register the instruction reads (rS, the address, RES and
		// RESADDR) feeds both its outcomes: herd's iico_data before the
		// choice of success or failure.
		v := m.ppcreg(args[0].R)
		a := m.ppcaddr(args[1])
		if m.stopped() {
			return
		}
		all := v.t.Merge(a.t).Merge(st.resT)
		if st.resRead >= 0 && st.resAddr == a.v && m.choose(2) == 0 {
			if m.stopped() {
				return
			}
			m.store(a, reg{v: v.v, t: v.t.Merge(st.resT)}, ppcTags.of("X"), st.resRead)
			st.cr[0] = crField{eq: true, t: all}
		} else {
			if m.stopped() {
				return
			}
			st.cr[0] = crField{t: all}
		}
		st.resRead, st.resT = -1, all
	}
}

// crFrom sets a condition field from a result compared with 0 (the
// record forms, "add." and friends).
func crFrom(r reg) crField {
	if r.v.IsAddr() {
		return crField{gt: true, t: r.t}
	}
	return crField{lt: r.v.N < 0, gt: r.v.N > 0, eq: r.v.N == 0, t: r.t}
}

// ppcalu executes arithmetic and logic.
func (m *machine) ppcalu(in *litmus.Instr, op string, args []*litmus.Operand, st *ppcPath) bool {
	if len(args) != 3 {
		return false
	}
	record := strings.HasSuffix(op, ".") && op != "andi."
	name := strings.TrimSuffix(op, ".")
	a := m.ppcreg(args[1].R)
	var b reg
	imm := args[2].Kind == litmus.OpdImm
	if imm {
		b = reg{v: axiom.Int(args[2].Imm)}
	} else {
		b = m.ppcreg(args[2].R)
	}
	if (name == "addi" || name == "addis" || name == "subi") && args[1].R.Name == "r0" {
		a = reg{} // addi rD,0,v is li; herd reads subi rD,rA,v as addi rD,rA,-v
	}
	if name == "addis" {
		b.v.N <<= 16
	}
	t := a.t.Merge(b.t)
	var v axiom.Val
	switch name {
	case "add", "addi", "addis":
		if a.v.IsAddr() || b.v.IsAddr() {
			var ok bool
			if v, ok = addrAdd(a.v, b.v); !ok {
				m.dead = true
				return true
			}
		} else {
			v = axiom.Int(a.v.N + b.v.N)
		}
	case "sub", "subi", "subf":
		x, y := a, b
		if name == "subf" {
			x, y = b, a // subf rD,rA,rB is rB - rA
		}
		if x.v.IsAddr() || y.v.IsAddr() {
			var ok bool
			if v, ok = addrSub(x.v, y.v); !ok {
				m.dead = true
				return true
			}
		} else {
			v = axiom.Int(x.v.N - y.v.N)
		}
	default:
		if a.v.IsAddr() || b.v.IsAddr() {
			if name == "xor" && a.v == b.v {
				v = axiom.Int(0)
				break
			}
			m.dead = true
			return true
		}
		x, y := a.v.N, b.v.N
		var r int64
		switch name {
		case "xor", "xori":
			r = x ^ y
		case "or", "ori":
			r = x | y
		case "and", "andi":
			r = x & y
		case "nor":
			r = ^(x | y)
		case "mullw", "mulli":
			r = x * y
		case "divw":
			if y == 0 {
				m.dead = true
				return true
			}
			r = int64(int32(x) / int32(y))
		case "slw":
			r = int64(uint32(x) << uint(y&63))
		case "sraw", "srawi":
			r = int64(int32(x) >> uint(y&31))
		default:
			return false
		}
		v = axiom.Int(r)
	}
	res := reg{v: v, t: t}
	m.set(args[0].R.Name, res)
	if record || op == "andi." {
		st.cr[0] = crFrom(res)
	}
	return true
}

// ppcMask is herd's mask k1 k2 (PPCSem.ml): the bits k1 to k2 in IBM
// numbering (bit 0 is the most significant of 64), wrapping around when
// k1 > k2.
func ppcMask(k1, k2 int) uint64 {
	bit := func(k int) uint64 {
		if k < 0 || k > 63 {
			return 0
		}
		return 1 << uint(63-k)
	}
	var m uint64
	if k1 <= k2 {
		for k := k1; k <= k2; k++ {
			m |= bit(k)
		}
		return m
	}
	m = ^uint64(0)
	for k := k2 + 1; k < k1; k++ {
		m &^= bit(k)
	}
	return m
}

// ppcRot32 is herd's rot32: the low word of x, doubled into both halves,
// rotated left by n as herd's rot64 does, which ors x<<n with x>>(63-n)
// (not 64-n) -- herd's arithmetic, reproduced as it is.
func ppcRot32(x uint64, n int64) uint64 {
	x &= 0xffffffff
	x |= x << 32
	k := uint(n % 64)
	return x<<k | x>>(63-k)
}
