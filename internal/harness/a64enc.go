package harness

import (
	"fmt"
)

// This file is a small AArch64 assembler for the instructions of the
// kernel's arm64 mapping (model/kmap) and the run loop, encoded as the Arm
// ARM (DDI 0487, section C6) gives them. Like the x86-64 one it is pure Go
// and checked against objdump (aarch64-linux-gnu-objdump) where installed.

// areg is an AArch64 register number: 0..30, or 31 for XZR (or SP where
// the instruction reads it as SP).
type areg uint8

const (
	aZR areg = 31
	aSP areg = 31
)

// Condition codes.
var acond = map[string]uint32{
	"eq": 0, "ne": 1, "hs": 2, "cs": 2, "lo": 3, "cc": 3, "mi": 4, "pl": 5, "vs": 6, "vc": 7,
	"hi": 8, "ls": 9, "ge": 10, "lt": 11, "gt": 12, "le": 13, "al": 14,
}

// a64asm accumulates instructions with labels; errors are sticky.
type a64asm struct {
	buf    []uint32
	labels map[int]int // label -> instruction index
	fixups []a64fixup
	err    error
	nlabel int
}

type a64fixup struct {
	at    int
	label int
	kind  uint8 // 0: imm26 (B), 1: imm19 at bit 5 (B.cond, CBZ)
}

func newA64asm() *a64asm { return &a64asm{labels: map[int]int{}} }

func (a *a64asm) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, args...)
	}
}

func (a *a64asm) newLabel() int {
	a.nlabel++
	return a.nlabel
}

func (a *a64asm) bind(l int)    { a.labels[l] = len(a.buf) }
func (a *a64asm) word(w uint32) { a.buf = append(a.buf, w) }
func rd(r areg) uint32          { return uint32(r) & 31 }
func rn(r areg) uint32          { return (uint32(r) & 31) << 5 }
func rm(r areg) uint32          { return (uint32(r) & 31) << 16 }

// finish resolves branches and returns the little-endian code.
func (a *a64asm) finish() ([]byte, error) {
	for _, f := range a.fixups {
		to, ok := a.labels[f.label]
		if !ok {
			a.fail("branch to an unbound label")
			break
		}
		off := int32(to - f.at)
		switch f.kind {
		case 0:
			if off < -(1<<25) || off >= 1<<25 {
				a.fail("branch out of range")
			}
			a.buf[f.at] |= uint32(off) & 0x03FFFFFF
		default:
			if off < -(1<<18) || off >= 1<<18 {
				a.fail("conditional branch out of range")
			}
			a.buf[f.at] |= (uint32(off) & 0x7FFFF) << 5
		}
	}
	if a.err != nil {
		return nil, a.err
	}
	out := make([]byte, 4*len(a.buf))
	for i, w := range a.buf {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	return out, nil
}

// Branches.
func (a *a64asm) b(l int) {
	a.fixups = append(a.fixups, a64fixup{len(a.buf), l, 0})
	a.word(0x14000000)
}

func (a *a64asm) bcond(cond string, l int) {
	c, ok := acond[cond]
	if !ok {
		a.fail("unknown condition %s", cond)
		return
	}
	a.fixups = append(a.fixups, a64fixup{len(a.buf), l, 1})
	a.word(0x54000000 | c)
}

// cbz/cbnz on an X (w false) or W register.
func (a *a64asm) cbz(nonzero, x bool, r areg, l int) {
	w := uint32(0x34000000)
	if nonzero {
		w |= 1 << 24
	}
	if x {
		w |= 1 << 31
	}
	a.fixups = append(a.fixups, a64fixup{len(a.buf), l, 1})
	a.word(w | rd(r))
}

func (a *a64asm) ret()   { a.word(0xD65F03C0) }
func (a *a64asm) nop()   { a.word(0xD503201F) }
func (a *a64asm) yield() { a.word(0xD503203F) }
func (a *a64asm) svc0()  { a.word(0xD4000001) }

// dmb emits DMB with option ish, ishld, ishst (or sy, ld, st).
func (a *a64asm) dmb(opt string) {
	crm, ok := map[string]uint32{"sy": 15, "st": 14, "ld": 13, "ish": 11, "ishst": 10, "ishld": 9, "osh": 3}[opt]
	if !ok {
		a.fail("unknown DMB option %s", opt)
		return
	}
	a.word(0xD50330BF | crm<<8)
}

// mrsCNTVCT reads the virtual counter into r.
func (a *a64asm) mrsCNTVCT(r areg) { a.word(0xD53BE040 | rd(r)) }

// movImm loads the 64-bit constant v into r with MOVZ/MOVN and MOVKs.
func (a *a64asm) movImm(r areg, v int64) {
	u := uint64(v)
	if ^u < 1<<16 {
		a.word(0x92800000 | uint32(^u)<<5 | rd(r)) // MOVN
		return
	}
	// For a value mostly of ones, start from MOVN and patch the chunks
	// that are not 0xffff; else MOVZ and patch the non-zero ones.
	ones, zeros := 0, 0
	for i := 0; i < 4; i++ {
		switch (u >> (16 * i)) & 0xffff {
		case 0xffff:
			ones++
		case 0:
			zeros++
		}
	}
	first := true
	if ones > zeros {
		for i := 0; i < 4; i++ {
			c := uint32(u>>(16*i)) & 0xffff
			if c == 0xffff {
				continue
			}
			if first {
				a.word(0x92800000 | uint32(i)<<21 | (^c&0xffff)<<5 | rd(r))
				first = false
			} else {
				a.word(0xF2800000 | uint32(i)<<21 | c<<5 | rd(r))
			}
		}
		if first {
			a.word(0x92800000 | rd(r))
		}
		return
	}
	for i := 0; i < 4; i++ {
		c := uint32(u>>(16*i)) & 0xffff
		if c == 0 && !(first && i == 3) {
			continue
		}
		if first {
			a.word(0xD2800000 | uint32(i)<<21 | c<<5 | rd(r))
			first = false
		} else {
			a.word(0xF2800000 | uint32(i)<<21 | c<<5 | rd(r))
		}
	}
	if first {
		a.word(0xD2800000 | rd(r))
	}
}

// movReg emits MOV d, m (ORR d, XZR, m).
func (a *a64asm) movReg(d, m areg) { a.word(0xAA0003E0 | rm(m) | rd(d)) }

// addImm emits ADD/SUB (sub) d, n, #imm (n may be SP), splitting an
// immediate up to 24 bits into two instructions.
func (a *a64asm) addImm(sub bool, d, n areg, imm int64) {
	if imm < 0 {
		sub, imm = !sub, -imm
	}
	op := uint32(0x91000000)
	if sub {
		op = 0xD1000000
	}
	switch {
	case imm < 1<<12:
		a.word(op | uint32(imm)<<10 | rn(n) | rd(d))
	case imm < 1<<24:
		a.word(op | 1<<22 | uint32(imm>>12)<<10 | rn(n) | rd(d))
		if lo := uint32(imm) & 0xfff; lo != 0 {
			a.word(op | lo<<10 | rn(d) | rd(d))
		}
	default:
		a.fail("immediate %d out of range", imm)
	}
}

// subsImm emits SUBS d, n, #imm12.
func (a *a64asm) subsImm(d, n areg, imm int64) {
	if imm < 0 || imm >= 1<<12 {
		a.fail("subs immediate %d out of range", imm)
		return
	}
	a.word(0xF1000000 | uint32(imm)<<10 | rn(n) | rd(d))
}

// cmpImm emits CMP (or CMN) n, #imm12.
func (a *a64asm) cmpImm(cmn bool, n areg, imm int64) {
	if imm < 0 {
		cmn, imm = !cmn, -imm
	}
	if imm >= 1<<12 {
		a.fail("compare immediate %d out of range", imm)
		return
	}
	op := uint32(0xF100001F)
	if cmn {
		op = 0xB100001F
	}
	a.word(op | uint32(imm)<<10 | rn(n))
}

// Register-register data processing, 64-bit.
var a64RegOps = map[string]uint32{
	"add": 0x8B000000, "sub": 0xCB000000, "adds": 0xAB000000, "subs": 0xEB000000,
	"and": 0x8A000000, "orr": 0xAA000000, "eor": 0xCA000000, "bic": 0x8A200000,
	"ands": 0xEA000000, "orn": 0xAA200000,
	"lsl": 0x9AC02000, "lsr": 0x9AC02400, "asr": 0x9AC02800, "mul": 0x9B007C00,
}

// reg3 emits op d, n, m.
func (a *a64asm) reg3(op string, d, n, m areg) {
	w, ok := a64RegOps[op]
	if !ok {
		a.fail("unknown operation %s", op)
		return
	}
	a.word(w | rm(m) | rn(n) | rd(d))
}

func (a *a64asm) cmpReg(n, m areg) { a.reg3("subs", aZR, n, m) }
func (a *a64asm) tst(n, m areg)    { a.reg3("ands", aZR, n, m) }
func (a *a64asm) neg(d, m areg)    { a.reg3("sub", d, aZR, m) }
func (a *a64asm) mvn(d, m areg)    { a.reg3("orn", d, aZR, m) }

// madd emits d = n*m + acc.
func (a *a64asm) madd(d, n, m, acc areg) {
	a.word(0x9B000000 | rm(m) | uint32(acc&31)<<10 | rn(n) | rd(d))
}

// cset emits d = cond ? 1 : 0.
func (a *a64asm) cset(d areg, cond string) {
	c, ok := acond[cond]
	if !ok {
		a.fail("unknown condition %s", cond)
		return
	}
	a.word(0x9A9F07E0 | (c^1)<<12 | rd(d))
}

// csel emits d = cond ? n : m; csinc d = cond ? n : m+1.
func (a *a64asm) csel(inc bool, d, n, m areg, cond string) {
	c, ok := acond[cond]
	if !ok {
		a.fail("unknown condition %s", cond)
		return
	}
	w := uint32(0x9A800000)
	if inc {
		w |= 1 << 10
	}
	a.word(w | rm(m) | c<<12 | rn(n) | rd(d))
}

// ccmp emits CCMP n, m, #nzcv, cond.
func (a *a64asm) ccmp(n, m areg, nzcv uint32, cond string) {
	c, ok := acond[cond]
	if !ok {
		a.fail("unknown condition %s", cond)
		return
	}
	a.word(0xFA400000 | rm(m) | c<<12 | rn(n) | nzcv&15)
}

// ldrOff/strOff emit LDR/STR t, [n, #off] for size 8 (X) or 4 (W), with a
// scaled unsigned offset.
func (a *a64asm) ldst(load bool, size int, t, n areg, off int64) {
	var w uint32
	switch size {
	case 8:
		w = 0xF9000000
	case 4:
		w = 0xB9000000
	default:
		a.fail("bad load/store size %d", size)
		return
	}
	if load {
		w |= 1 << 22
	}
	if off < 0 || off%int64(size) != 0 || off/int64(size) >= 1<<12 {
		a.fail("load/store offset %d out of range", off)
		return
	}
	a.word(w | uint32(off/int64(size))<<10 | rn(n) | rd(t))
}

// ldrIdx emits LDR t, [n, m, LSL #log2(size)] for size 8 or 4.
func (a *a64asm) ldrIdx(size int, t, n, m areg) {
	w := uint32(0xF8607800)
	if size == 4 {
		w = 0xB8607800
	}
	a.word(w | rm(m) | rn(n) | rd(t))
}

// Acquire/release and exclusive accesses, 64-bit.
func (a *a64asm) ldar(t, n areg) { a.word(0xC8DFFC00 | rn(n) | rd(t)) }
func (a *a64asm) stlr(t, n areg) { a.word(0xC89FFC00 | rn(n) | rd(t)) }
func (a *a64asm) ldxr(acq bool, t, n areg) {
	w := uint32(0xC85F7C00)
	if acq {
		w |= 1 << 15
	}
	a.word(w | rn(n) | rd(t))
}
func (a *a64asm) stxr(rel bool, s, t, n areg) {
	w := uint32(0xC8007C00)
	if rel {
		w |= 1 << 15
	}
	a.word(w | rm(s) | rn(n) | rd(t))
}

// lseOps are the 64-bit LSE atomics' encodings, before the acquire and
// release bits and the registers.
var lseOps = map[string]uint32{"add": 0xF8200000, "clr": 0xF8201000, "eor": 0xF8202000, "set": 0xF8203000, "swp": 0xF8208000}

// lse emits an LSE atomic: op is add, clr, eor, set (LD<op>) or swp, with
// acquire/release bits; ST<op> is LD<op> with t = XZR.
func (a *a64asm) lse(op string, acq, rel bool, s, t, n areg) {
	w, ok := lseOps[op]
	if !ok {
		a.fail("unknown LSE op %s", op)
		return
	}
	if acq {
		w |= 1 << 23
	}
	if rel {
		w |= 1 << 22
	}
	a.word(w | rm(s) | rn(n) | rd(t))
}

// cas emits CAS{A}{L} s, t, [n].
func (a *a64asm) cas(acq, rel bool, s, t, n areg) {
	w := uint32(0xC8A07C00)
	if acq {
		w |= 1 << 22
	}
	if rel {
		w |= 1 << 15
	}
	a.word(w | rm(s) | rn(n) | rd(t))
}

// prfm emits PRFM PSTL1STRM, [n].
func (a *a64asm) prfmPSTL1STRM(n areg) { a.word(0xF9800000 | rn(n) | 17) }
