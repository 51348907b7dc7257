package harness

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type a64Case struct {
	emit func(a *a64asm)
	want string
}

var a64Cases = []a64Case{
	{func(a *a64asm) { a.movImm(1, 5) }, "mov x1, #0x5"},
	{func(a *a64asm) { a.movImm(2, -1) }, "mov x2, #0xffffffffffffffff"},
	{func(a *a64asm) { a.movImm(3, 0x12345678) }, "mov x3, #0x5678"},
	{func(a *a64asm) {}, "movk x3, #0x1234, lsl #16"},
	{func(a *a64asm) { a.movReg(4, 5) }, "mov x4, x5"},
	{func(a *a64asm) { a.addImm(false, 6, 7, 16) }, "add x6, x7, #0x10"},
	{func(a *a64asm) { a.addImm(false, 6, 7, 0x3000) }, "add x6, x7, #0x3, lsl #12"},
	{func(a *a64asm) { a.addImm(true, 6, 7, 1) }, "sub x6, x7, #0x1"},
	{func(a *a64asm) { a.cmpImm(false, 8, 1) }, "cmp x8, #0x1"},
	{func(a *a64asm) { a.cmpImm(true, 8, 1) }, "cmn x8, #0x1"},
	{func(a *a64asm) { a.subsImm(9, 9, 1) }, "subs x9, x9, #0x1"},
	{func(a *a64asm) { a.reg3("add", 1, 2, 3) }, "add x1, x2, x3"},
	{func(a *a64asm) { a.reg3("eor", 1, 2, 3) }, "eor x1, x2, x3"},
	{func(a *a64asm) { a.reg3("bic", 1, 2, 3) }, "bic x1, x2, x3"},
	{func(a *a64asm) { a.reg3("orr", 1, 2, 3) }, "orr x1, x2, x3"},
	{func(a *a64asm) { a.reg3("and", 1, 2, 3) }, "and x1, x2, x3"},
	{func(a *a64asm) { a.reg3("lsl", 1, 2, 3) }, "lsl x1, x2, x3"},
	{func(a *a64asm) { a.reg3("asr", 1, 2, 3) }, "asr x1, x2, x3"},
	{func(a *a64asm) { a.reg3("mul", 1, 2, 3) }, "mul x1, x2, x3"},
	{func(a *a64asm) { a.cmpReg(4, 5) }, "cmp x4, x5"},
	{func(a *a64asm) { a.tst(4, 5) }, "tst x4, x5"},
	{func(a *a64asm) { a.neg(4, 5) }, "neg x4, x5"},
	{func(a *a64asm) { a.mvn(4, 5) }, "mvn x4, x5"},
	{func(a *a64asm) { a.madd(1, 2, 3, 4) }, "madd x1, x2, x3, x4"},
	{func(a *a64asm) { a.cset(1, "eq") }, "cset x1, eq"},
	{func(a *a64asm) { a.cset(1, "lt") }, "cset x1, lt"},
	{func(a *a64asm) { a.csel(false, 13, 2, 13, "lo") }, "csel x13, x2, x13, cc"},
	{func(a *a64asm) { a.csel(true, 20, 20, 20, "lo") }, "cinc x20, x20, cs"},
	{func(a *a64asm) { a.ccmp(2, 21, 2, "hs") }, "ccmp x2, x21, #0x2, cs"},
	{func(a *a64asm) { a.ldst(true, 8, 1, 25, 16) }, "ldr x1, [x25, #16]"},
	{func(a *a64asm) { a.ldst(false, 8, 1, 25, 0) }, "str x1, [x25]"},
	{func(a *a64asm) { a.ldst(false, 4, 1, 25, 4) }, "str w1, [x25, #4]"},
	{func(a *a64asm) { a.ldrIdx(8, 1, 2, 3) }, "ldr x1, [x2, x3, lsl #3]"},
	{func(a *a64asm) { a.ldrIdx(4, 1, 2, 3) }, "ldr w1, [x2, x3, lsl #2]"},
	{func(a *a64asm) { a.ldar(1, 2) }, "ldar x1, [x2]"},
	{func(a *a64asm) { a.stlr(aZR, 2) }, "stlr xzr, [x2]"},
	{func(a *a64asm) { a.ldxr(false, 16, 2) }, "ldxr x16, [x2]"},
	{func(a *a64asm) { a.ldxr(true, 16, 2) }, "ldaxr x16, [x2]"},
	{func(a *a64asm) { a.stxr(false, 17, 16, 2) }, "stxr w17, x16, [x2]"},
	{func(a *a64asm) { a.stxr(true, 17, 16, 2) }, "stlxr w17, x16, [x2]"},
	{func(a *a64asm) { a.lse("add", true, true, 1, 16, 2) }, "ldaddal x1, x16, [x2]"},
	{func(a *a64asm) { a.lse("add", false, false, 1, aZR, 2) }, "stadd x1, [x2]"},
	{func(a *a64asm) { a.lse("clr", false, true, 1, aZR, 2) }, "stclrl x1, [x2]"},
	{func(a *a64asm) { a.lse("set", true, false, 1, 16, 2) }, "ldseta x1, x16, [x2]"},
	{func(a *a64asm) { a.lse("eor", false, false, 1, 16, 2) }, "ldeor x1, x16, [x2]"},
	{func(a *a64asm) { a.lse("swp", true, true, 1, 16, 2) }, "swpal x1, x16, [x2]"},
	{func(a *a64asm) { a.lse("swp", false, true, 1, 16, 2) }, "swpl x1, x16, [x2]"},
	{func(a *a64asm) { a.cas(false, false, 16, 17, 2) }, "cas x16, x17, [x2]"},
	{func(a *a64asm) { a.cas(true, false, 16, 17, 2) }, "casa x16, x17, [x2]"},
	{func(a *a64asm) { a.cas(false, true, 16, 17, 2) }, "casl x16, x17, [x2]"},
	{func(a *a64asm) { a.cas(true, true, 16, 17, 2) }, "casal x16, x17, [x2]"},
	{func(a *a64asm) { a.dmb("ish") }, "dmb ish"},
	{func(a *a64asm) { a.dmb("ishld") }, "dmb ishld"},
	{func(a *a64asm) { a.dmb("ishst") }, "dmb ishst"},
	{func(a *a64asm) { a.prfmPSTL1STRM(2) }, "prfm pstl1strm, [x2]"},
	{func(a *a64asm) { a.yield() }, "yield"},
	{func(a *a64asm) { a.nop() }, "nop"},
	{func(a *a64asm) { a.svc0() }, "svc #0x0"},
	{func(a *a64asm) { a.mrsCNTVCT(17) }, "mrs x17, cntvct_el0"},
	{func(a *a64asm) { a.ret() }, "ret"},
}

func TestA64EncodingMatchesObjdump(t *testing.T) {
	a := newA64asm()
	for _, c := range a64Cases {
		c.emit(a)
	}
	code, err := a.finish()
	require.NoError(t, err)
	got := objdump(t, "aarch64-linux-gnu-objdump", "aarch64", code)
	var want []string
	for _, c := range a64Cases {
		want = append(want, c.want)
	}
	require.Equal(t, want, got)
}

func TestA64Branches(t *testing.T) {
	a := newA64asm()
	top, end := a.newLabel(), a.newLabel()
	a.bind(top)
	a.nop()
	a.bcond("ne", top)
	a.cbz(true, false, 17, top)
	a.cbz(false, true, 16, end)
	a.b(end)
	a.nop()
	a.bind(end)
	a.ret()
	code, err := a.finish()
	require.NoError(t, err)
	got := objdump(t, "aarch64-linux-gnu-objdump", "aarch64", code)
	require.Equal(t, []string{"nop", "b.ne 0x0", "cbnz w17, 0x0", "cbz x16, 0x18", "b 0x18", "nop", "ret"}, got)
}

func TestA64MovImm(t *testing.T) {
	for _, v := range []int64{0, 1, 0xffff, 0x10000, -1, -2, -0x10000, 1 << 40, 0x7f5a00000000, -1 << 63, 0x1234_5678_9abc_def0} {
		a := newA64asm()
		a.movImm(3, v)
		require.LessOrEqual(t, len(a.buf), 4)
		// Evaluate the MOVZ/MOVN/MOVK sequence.
		var x uint64
		for _, w := range a.buf {
			hw := (w >> 21) & 3
			imm := uint64((w >> 5) & 0xffff)
			switch w >> 23 {
			case 0x1A5: // MOVZ
				x = imm << (16 * hw)
			case 0x125: // MOVN
				x = ^(imm << (16 * hw))
			case 0x1E5: // MOVK
				x = x&^(0xffff<<(16*hw)) | imm<<(16*hw)
			default:
				t.Fatalf("unexpected instruction %#x", w)
			}
		}
		require.Equal(t, uint64(v), x, "%#x", v)
	}
}
