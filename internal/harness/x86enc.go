package harness

import (
	"fmt"
	"math"
)

// This file is a small x86-64 assembler: the instructions the X86 litmus
// dialects, the kernel's x86-64 mapping (model/kmap) and the run loop need,
// encoded as the Intel SDM (vol. 2, chapter 2) gives them. It is pure Go,
// so the encoder is tested on every host (against objdump where it is
// installed); only running the code needs GOARCH=amd64.

// xreg is an x86-64 general-purpose register number (0..15, RAX..R15), or
// noReg.
type xreg int8

const noReg xreg = -1

const (
	rAX xreg = iota
	rCX
	rDX
	rBX
	rSP
	rBP
	rSI
	rDI
	r8
	r9
	r10
	r11
	r12
	r13
	r14
	r15
)

var xregNames64 = [16]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

// xregName returns the AT&T name of r at size bytes.
func xregName(r xreg, size int) string {
	if r < 0 || r > 15 {
		return fmt.Sprintf("xreg(%d)", r)
	}
	n := xregNames64[r]
	switch size {
	case 8:
		return n
	case 4:
		if r >= 8 {
			return n + "d"
		}
		return "e" + n[1:]
	case 2:
		if r >= 8 {
			return n + "w"
		}
		return n[1:]
	case 1:
		switch {
		case r >= 8:
			return n + "b"
		case r < 4:
			return n[1:2] + "l"
		default:
			return n[1:] + "l"
		}
	}
	return n
}

// xopKind says what an operand is.
type xopKind uint8

const (
	xoReg xopKind = iota + 1
	xoImm
	xoMem
)

// xop is one operand: a register of a size, an immediate, or memory
// [base + index*scale + disp].
type xop struct {
	kind  xopKind
	reg   xreg
	size  int // register size in bytes
	imm   int64
	base  xreg
	index xreg
	scale int
	disp  int64
}

func xR(r xreg, size int) xop { return xop{kind: xoReg, reg: r, size: size} }
func xI(v int64) xop          { return xop{kind: xoImm, imm: v} }
func xM(base xreg, disp int64) xop {
	return xop{kind: xoMem, base: base, index: noReg, disp: disp}
}
func xMI(base, index xreg, scale int, disp int64) xop {
	return xop{kind: xoMem, base: base, index: index, scale: scale, disp: disp}
}

// Condition codes (the low nibble of Jcc/SETcc/CMOVcc).
var xcond = map[string]byte{
	"o": 0, "no": 1, "b": 2, "c": 2, "nae": 2, "ae": 3, "nb": 3, "nc": 3,
	"e": 4, "z": 4, "ne": 5, "nz": 5, "be": 6, "na": 6, "a": 7, "nbe": 7,
	"s": 8, "ns": 9, "p": 10, "pe": 10, "np": 11, "po": 11,
	"l": 12, "nge": 12, "ge": 13, "nl": 13, "le": 14, "ng": 14, "g": 15, "nle": 15,
}

// x86asm accumulates machine code with labels. Errors are sticky: the first
// one is kept and later calls do nothing useful.
type x86asm struct {
	buf    []byte
	labels map[int]int // label -> offset
	fixups []x86fixup
	err    error
	nlabel int
}

type x86fixup struct {
	at    int // offset of the rel32
	label int
}

func newX86asm() *x86asm { return &x86asm{labels: map[int]int{}} }

func (a *x86asm) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, args...)
	}
}

// newLabel returns a fresh label.
func (a *x86asm) newLabel() int {
	a.nlabel++
	return a.nlabel
}

// bind places label l here.
func (a *x86asm) bind(l int) { a.labels[l] = len(a.buf) }

func (a *x86asm) emit(b ...byte) { a.buf = append(a.buf, b...) }

func (a *x86asm) emit32(v int32) {
	a.emit(byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// finish resolves the branches and returns the code.
func (a *x86asm) finish() ([]byte, error) {
	for _, f := range a.fixups {
		to, ok := a.labels[f.label]
		if !ok {
			a.fail("branch to an unbound label")
			break
		}
		rel := to - (f.at + 4)
		b := a.buf[f.at:]
		b[0], b[1], b[2], b[3] = byte(rel), byte(rel>>8), byte(rel>>16), byte(rel>>24)
	}
	if a.err != nil {
		return nil, a.err
	}
	return a.buf, nil
}

// rex emits a REX prefix when needed: w for 64-bit operands, r/x/b the
// high bits of the ModRM reg, SIB index and base/rm fields; force for the
// byte registers SPL, BPL, SIL, DIL.
func (a *x86asm) rex(w bool, r, x, b xreg, force bool) {
	v := byte(0x40)
	if w {
		v |= 8
	}
	if r >= 8 {
		v |= 4
	}
	if x >= 8 {
		v |= 2
	}
	if b >= 8 {
		v |= 1
	}
	if v != 0x40 || force {
		a.emit(v)
	}
}

// modrm emits ModRM (and SIB, displacement) for reg field regField and the
// register-or-memory operand rm. imm is the number of immediate bytes that
// will follow (unused: there is no RIP-relative addressing here).
func (a *x86asm) modrm(regField byte, rm xop) {
	regField &= 7
	if rm.kind == xoReg {
		a.emit(0xC0 | regField<<3 | byte(rm.reg)&7)
		return
	}
	if rm.disp < math.MinInt32 || rm.disp > math.MaxInt32 {
		a.fail("displacement %d does not fit 32 bits", rm.disp)
		return
	}
	disp := int32(rm.disp)
	base, index := rm.base, rm.index
	if index == rSP {
		a.fail("rsp cannot be an index register")
		return
	}
	scaleBits := byte(0)
	switch rm.scale {
	case 0, 1:
	case 2:
		scaleBits = 1
	case 4:
		scaleBits = 2
	case 8:
		scaleBits = 3
	default:
		a.fail("bad scale %d", rm.scale)
		return
	}
	if base == noReg {
		// [index*scale + disp32]: SIB with no base.
		idx := byte(4)
		if index != noReg {
			idx = byte(index) & 7
		}
		a.emit(0x04|regField<<3, scaleBits<<6|idx<<3|5)
		a.emit32(disp)
		return
	}
	var mod byte
	switch {
	case disp == 0 && base&7 != 5:
		mod = 0
	case disp >= -128 && disp <= 127:
		mod = 1
	default:
		mod = 2
	}
	if index != noReg || base&7 == 4 {
		idx := byte(4)
		if index != noReg {
			idx = byte(index) & 7
		}
		a.emit(mod<<6|regField<<3|4, scaleBits<<6|idx<<3|byte(base)&7)
	} else {
		a.emit(mod<<6 | regField<<3 | byte(base)&7)
	}
	switch mod {
	case 1:
		a.emit(byte(int8(disp)))
	case 2:
		a.emit32(disp)
	}
}

// memRegs returns the index and base registers of rm for the REX prefix.
func memRegs(rm xop) (x, b xreg) {
	if rm.kind == xoReg {
		return noReg, rm.reg
	}
	return rm.index, rm.base
}

// byteForce reports whether a byte-sized register operand needs a REX
// prefix to mean SPL/BPL/SIL/DIL rather than AH/CH/DH/BH.
func byteForce(size int, ops ...xop) bool {
	if size != 1 {
		return false
	}
	for _, o := range ops {
		if o.kind == xoReg && o.reg >= 4 && o.reg < 8 {
			return true
		}
	}
	return false
}

// op emits prefix (0x66 for 16-bit), REX, the opcode bytes and ModRM for an
// instruction with a ModRM reg field (a register number or an opcode
// extension /n) and an r/m operand, at operand size size.
func (a *x86asm) op(size int, opcode []byte, regField xreg, regOp *xop, rm xop) {
	if size == 2 {
		a.emit(0x66)
	}
	x, b := memRegs(rm)
	force := false
	if regOp != nil {
		force = byteForce(size, *regOp, rm)
	} else {
		force = byteForce(size, rm)
	}
	a.rex(size == 8, regField, x, b, force)
	a.emit(opcode...)
	a.modrm(byte(regField), rm)
}

// imm emits the immediate of an instruction of operand size opSize: one
// byte for a byte operation, else the operand size up to 4 bytes (a 64-bit
// operation sign-extends a 32-bit immediate).
func (a *x86asm) imm(opSize int, v int64) {
	switch opSize {
	case 1:
		if v < math.MinInt8 || v > math.MaxUint8 {
			a.fail("immediate %d does not fit 8 bits", v)
		}
		a.emit(byte(v))
	case 2:
		if v < math.MinInt16 || v > math.MaxUint16 {
			a.fail("immediate %d does not fit 16 bits", v)
		}
		a.emit(byte(v), byte(v>>8))
	case 4:
		if v < math.MinInt32 || v > math.MaxUint32 {
			a.fail("immediate %d does not fit 32 bits", v)
		}
		a.emit32(int32(v))
	default:
		if v < math.MinInt32 || v > math.MaxInt32 {
			a.fail("immediate %d does not fit a sign-extended 32 bits", v)
		}
		a.emit32(int32(v))
	}
}

// imm8 emits a one-byte immediate (a shift count, a bit number, the
// sign-extended imm8 of 0x83).
func (a *x86asm) imm8(v int64) {
	if v < math.MinInt8 || v > math.MaxUint8 {
		a.fail("immediate %d does not fit 8 bits", v)
	}
	a.emit(byte(v))
}

func checkSize(a *x86asm, size int) bool {
	switch size {
	case 1, 2, 4, 8:
		return true
	}
	a.fail("bad operand size %d", size)
	return false
}

// ALU operations with the classic encodings: the /n of 0x80/0x81/0x83 and
// the base opcode of the reg forms.
var aluOps = map[string]byte{"add": 0, "or": 1, "adc": 2, "sbb": 3, "and": 4, "sub": 5, "xor": 6, "cmp": 7}

// alu emits dst op= src (cmp: flags of dst - src) at size bytes.
func (a *x86asm) alu(name string, size int, dst, src xop) {
	n, ok := aluOps[name]
	if !ok {
		a.fail("unknown ALU op %s", name)
		return
	}
	if !checkSize(a, size) {
		return
	}
	switch {
	case src.kind == xoImm:
		if dst.kind == xoImm {
			a.fail("%s: immediate destination", name)
			return
		}
		switch {
		case size == 1:
			a.op(1, []byte{0x80}, xreg(n), nil, dst)
			a.imm8(src.imm)
		case src.imm >= -128 && src.imm <= 127:
			a.op(size, []byte{0x83}, xreg(n), nil, dst)
			a.imm8(src.imm)
		default:
			a.op(size, []byte{0x81}, xreg(n), nil, dst)
			a.imm(size, src.imm)
		}
	case src.kind == xoReg:
		op := n*8 + 1
		if size == 1 {
			op--
		}
		a.op(size, []byte{op}, src.reg, &src, dst)
	case dst.kind == xoReg && src.kind == xoMem:
		op := n*8 + 3
		if size == 1 {
			op--
		}
		a.op(size, []byte{op}, dst.reg, &dst, src)
	default:
		a.fail("%s: unsupported operands", name)
	}
}

// mov emits dst = src at size bytes.
func (a *x86asm) mov(size int, dst, src xop) {
	if !checkSize(a, size) {
		return
	}
	byteOp := byte(1)
	if size == 1 {
		byteOp = 0
	}
	switch {
	case src.kind == xoImm && dst.kind == xoReg:
		v := src.imm
		switch {
		case size == 8 && (v < math.MinInt32 || v > math.MaxInt32):
			a.rex(true, noReg, noReg, dst.reg, false)
			a.emit(0xB8 + byte(dst.reg)&7)
			for i := 0; i < 8; i++ {
				a.emit(byte(v >> (8 * i)))
			}
		case size == 8:
			a.op(8, []byte{0xC7}, 0, nil, dst)
			a.imm(8, v)
		default:
			if size == 2 {
				a.emit(0x66)
			}
			a.rex(false, noReg, noReg, dst.reg, byteForce(size, dst))
			if size == 1 {
				a.emit(0xB0 + byte(dst.reg)&7)
			} else {
				a.emit(0xB8 + byte(dst.reg)&7)
			}
			a.imm(size, v)
		}
	case src.kind == xoImm && dst.kind == xoMem:
		a.op(size, []byte{0xC6 | byteOp}, 0, nil, dst)
		a.imm(size, src.imm)
	case src.kind == xoReg:
		a.op(size, []byte{0x88 | byteOp}, src.reg, &src, dst)
	case dst.kind == xoReg && src.kind == xoMem:
		a.op(size, []byte{0x8A | byteOp}, dst.reg, &dst, src)
	default:
		a.fail("mov: unsupported operands")
	}
}

// rmReg emits an instruction "opcode r/m, reg" (xchg, xadd, cmpxchg, test),
// the opcode's byte form being opcode-1 in its last byte.
func (a *x86asm) rmReg(size int, opcode []byte, rm, reg xop) {
	if !checkSize(a, size) {
		return
	}
	if reg.kind != xoReg {
		a.fail("expected a register operand")
		return
	}
	op := append([]byte(nil), opcode...)
	if size == 1 {
		op[len(op)-1]--
	}
	a.op(size, op, reg.reg, &reg, rm)
}

func (a *x86asm) xchg(size int, rm, reg xop) { a.rmReg(size, []byte{0x87}, rm, reg) }
func (a *x86asm) xadd(size int, rm, reg xop) { a.rmReg(size, []byte{0x0F, 0xC1}, rm, reg) }
func (a *x86asm) cmpxchg(size int, rm, reg xop) {
	a.rmReg(size, []byte{0x0F, 0xB1}, rm, reg)
}

// test emits the flags of a & b.
func (a *x86asm) test(size int, rm, src xop) {
	if src.kind == xoImm {
		op := byte(0xF7)
		if size == 1 {
			op = 0xF6
		}
		a.op(size, []byte{op}, 0, nil, rm)
		a.imm(size, src.imm)
		return
	}
	if rm.kind == xoReg && src.kind == xoMem {
		rm, src = src, rm
	}
	a.rmReg(size, []byte{0x85}, rm, src)
}

// unary emits inc, dec, neg or not of rm.
func (a *x86asm) unary(name string, size int, rm xop) {
	if !checkSize(a, size) {
		return
	}
	var op byte
	var ext xreg
	switch name {
	case "inc":
		op, ext = 0xFF, 0
	case "dec":
		op, ext = 0xFF, 1
	case "not":
		op, ext = 0xF7, 2
	case "neg":
		op, ext = 0xF7, 3
	default:
		a.fail("unknown unary %s", name)
		return
	}
	if size == 1 {
		op--
	}
	a.op(size, []byte{op}, ext, nil, rm)
}

// shift emits shl/sal/shr/sar rm by an immediate or by %cl.
func (a *x86asm) shift(name string, size int, rm, count xop) {
	ext := map[string]xreg{"shl": 4, "sal": 4, "shr": 5, "sar": 7}[name]
	if ext == 0 {
		a.fail("unknown shift %s", name)
		return
	}
	byteAdj := byte(0)
	if size == 1 {
		byteAdj = 1
	}
	switch {
	case count.kind == xoImm:
		a.op(size, []byte{0xC1 - byteAdj}, ext, nil, rm)
		a.imm8(count.imm)
	case count.kind == xoReg && count.reg == rCX:
		a.op(size, []byte{0xD3 - byteAdj}, ext, nil, rm)
	default:
		a.fail("%s: the count must be an immediate or %%cl", name)
	}
}

// bitop emits bt, bts, btr or btc of rm with an immediate or register bit
// number.
func (a *x86asm) bitop(name string, size int, rm, nr xop) {
	ext := map[string]byte{"bt": 4, "bts": 5, "btr": 6, "btc": 7}
	n, ok := ext[name]
	if !ok || size == 1 {
		a.fail("bad bit operation %s/%d", name, size)
		return
	}
	switch nr.kind {
	case xoImm:
		a.op(size, []byte{0x0F, 0xBA}, xreg(n), nil, rm)
		a.imm8(nr.imm)
	case xoReg:
		op := map[string]byte{"bt": 0xA3, "bts": 0xAB, "btr": 0xB3, "btc": 0xBB}[name]
		a.op(size, []byte{0x0F, op}, nr.reg, &nr, rm)
	default:
		a.fail("%s: bad bit number operand", name)
	}
}

// setcc emits SETcc into the byte register or memory rm.
func (a *x86asm) setcc(cc string, rm xop) {
	c, ok := xcond[cc]
	if !ok {
		a.fail("unknown condition %s", cc)
		return
	}
	a.op(1, []byte{0x0F, 0x90 + c}, 0, nil, rm)
}

// cmovcc emits CMOVcc dst, src.
func (a *x86asm) cmovcc(cc string, size int, dst, src xop) {
	c, ok := xcond[cc]
	if !ok || dst.kind != xoReg || size == 1 {
		a.fail("bad cmov%s", cc)
		return
	}
	a.op(size, []byte{0x0F, 0x40 + c}, dst.reg, &dst, src)
}

// movx emits movzx/movsx dst (size) from src (srcSize 1, 2 or 4).
func (a *x86asm) movx(signed bool, size int, dst xop, srcSize int, src xop) {
	if dst.kind != xoReg {
		a.fail("movzx/movsx need a register destination")
		return
	}
	switch {
	case srcSize == 4 && signed:
		a.op(size, []byte{0x63}, dst.reg, &dst, src)
	case srcSize == 4:
		// A 32-bit move zero-extends.
		a.mov(4, xR(dst.reg, 4), src)
	case srcSize == 1 || srcSize == 2:
		op := byte(0xB6)
		if signed {
			op = 0xBE
		}
		if srcSize == 2 {
			op++
		}
		if size == 2 {
			a.emit(0x66)
		}
		x, b := memRegs(src)
		a.rex(size == 8, dst.reg, x, b, srcSize == 1 && byteForce(1, src))
		a.emit(0x0F, op)
		a.modrm(byte(dst.reg), src)
	default:
		a.fail("bad movzx/movsx source size %d", srcSize)
	}
}

// lea emits dst = address of m.
func (a *x86asm) lea(size int, dst, m xop) {
	if m.kind != xoMem || dst.kind != xoReg {
		a.fail("lea needs a memory source and a register destination")
		return
	}
	a.op(size, []byte{0x8D}, dst.reg, &dst, m)
}

// imul emits dst *= src, or dst = src * imm with three operands.
func (a *x86asm) imul(size int, dst, src xop) {
	a.op(size, []byte{0x0F, 0xAF}, dst.reg, &dst, src)
}

func (a *x86asm) imul3(size int, dst, src xop, v int64) {
	if v >= -128 && v <= 127 {
		a.op(size, []byte{0x6B}, dst.reg, &dst, src)
		a.imm8(v)
		return
	}
	a.op(size, []byte{0x69}, dst.reg, &dst, src)
	a.imm(size, v)
}

// jcc emits a conditional jump to label l ("" cc: JMP).
func (a *x86asm) jcc(cc string, l int) {
	if cc == "" || cc == "mp" {
		a.emit(0xE9)
	} else {
		c, ok := xcond[cc]
		if !ok {
			a.fail("unknown condition %s", cc)
			return
		}
		a.emit(0x0F, 0x80+c)
	}
	a.fixups = append(a.fixups, x86fixup{len(a.buf), l})
	a.emit32(0)
}

func (a *x86asm) jmp(l int) { a.jcc("", l) }

// Instructions without operands.
func (a *x86asm) lock()    { a.emit(0xF0) }
func (a *x86asm) ret()     { a.emit(0xC3) }
func (a *x86asm) nop()     { a.emit(0x90) }
func (a *x86asm) pause()   { a.emit(0xF3, 0x90) }
func (a *x86asm) mfence()  { a.emit(0x0F, 0xAE, 0xF0) }
func (a *x86asm) lfence()  { a.emit(0x0F, 0xAE, 0xE8) }
func (a *x86asm) sfence()  { a.emit(0x0F, 0xAE, 0xF8) }
func (a *x86asm) rdtsc()   { a.emit(0x0F, 0x31) }
func (a *x86asm) syscall() { a.emit(0x0F, 0x05) }
func (a *x86asm) pushfq()  { a.emit(0x9C) }
func (a *x86asm) popfq()   { a.emit(0x9D) }

// clflush emits CLFLUSH m (opt: CLFLUSHOPT).
func (a *x86asm) clflush(opt bool, m xop) {
	if opt {
		a.emit(0x66)
	}
	a.op(4, []byte{0x0F, 0xAE}, 7, nil, m)
}
