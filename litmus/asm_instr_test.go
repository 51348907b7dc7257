package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// asmTest wraps one instruction in a one-thread test of the dialect.
func asmTest(arch Arch, instr string) string {
	return string(arch) + " t\n{ }\n P0 ;\n " + instr + " ;\nexists (x=0)\n"
}

// TestArchInstrs parses single instructions and checks the operand dump
// (as in the .ast golden files) or the error.
func TestArchInstrs(t *testing.T) {
	for _, tc := range []struct {
		arch  Arch
		instr string
		want  string // operand dump, or the error after "ERROR "
	}{
		// AArch64 addressing modes.
		{ArchAArch64, "LDR X0,[X1, #-16]!", "LDR (LDR) | reg X0/64 | mem base X1/64 offset -16 pre-index"},
		{ArchAArch64, "ldr x0,[x1],#16", "ldr (LDR) | reg X0/64 | mem base X1/64 offset 16 post-index"},
		{ArchAArch64, "LDR X0,[X1,X2,LSL#3]", "LDR (LDR) | reg X0/64 | mem base X1/64 index X2/64 LSL 3"},
		{ArchAArch64, "LDR W0,[X1,W2,SXTW #2]", "LDR (LDR) | reg X0/32=W0 | mem base X1/64 index X2/32=W2 SXTW 2"},
		{ArchAArch64, "LDR W0,[X1,W2,UXTW]", "LDR (LDR) | reg X0/32=W0 | mem base X1/64 index X2/32=W2 UXTW 0"},
		{ArchAArch64, "LDR W0,[X1,X2,ROR #1]", "ERROR expected LSL, UXTW, SXTW or SXTX"},
		{ArchAArch64, "LDR W0,[X1,X2]!", "ERROR unexpected ! after register index"},
		{ArchAArch64, "LDR W0,[X1]!", "ERROR expected offset before ]!"},
		{ArchAArch64, "LDR W0,[X1,#0x10]", "LDR (LDR) | reg X0/32=W0 | mem base X1/64 offset 16"},
		{ArchAArch64, "LDUR X0,[X1,#8]", "LDUR (LDUR) | reg X0/64 | mem base X1/64 offset 8"},
		{ArchAArch64, "LDUR X0,[X1],#8", "ERROR expected end of instruction, found '#8'"},
		{ArchAArch64, "LDUR X0,[X1,#8]!", "ERROR expected memory operand [Xn{,#imm}], found writeback"},
		{ArchAArch64, "LDAR X0,[X1],#8", "ERROR expected end of instruction"},
		{ArchAArch64, "LDXR W0,[X1,X2]", "ERROR expected memory operand [Xn], found register index"},
		{ArchAArch64, "LDRB X0,[X1]", "ERROR expected W register, found 'X0'"},
		{ArchAArch64, "LDRSB X0,[X1]", "LDRSB (LDRSB) | reg X0/64 | mem base X1/64 offset 0"},
		// Registers.
		{ArchAArch64, "MOV x30,lr", "MOV (MOV) | reg X30/64 | reg X30/64=LR"},
		{ArchAArch64, "MOV W31,#1", "ERROR expected X register or W register, found 'W31'"},
		{ArchAArch64, "MOV X0,W1", "MOV (MOV) | reg X0/64 | reg X1/32=W1"},
		{ArchAArch64, "MOV W0,X1", "ERROR expected immediate or W register, found 'X1'"},
		{ArchAArch64, "STLR W0,[SP]", "STLR (STLR) | reg X0/32=W0 | mem base SP/64 offset 0"},
		// Shifts and extensions.
		{ArchAArch64, "ADD X0,X1,X2,UXTX", "ADD (ADD) | reg X0/64 | reg X1/64 | extended X2/64 UXTX 0"},
		{ArchAArch64, "ADD W0,W1,X2,UXTX", "ERROR expected W register or immediate or extended register (W register with UXTB..SXTX), found 'X2'"},
		{ArchAArch64, "ADDS W0,W1,#4095", "ADDS (ADDS) | reg X0/32=W0 | reg X1/32=W1 | imm 4095"},
		{ArchAArch64, "EOR X0,X1,#1,LSR #2", "ERROR expected LSL #amount after immediate"},
		{ArchAArch64, "BIC W0,W1,#1", "ERROR expected W register, found '#1'"},
		{ArchAArch64, "LSL X1,X1,#51", "LSL (LSL) | reg X1/64 | reg X1/64 | imm 51"},
		{ArchAArch64, "ASRV X9,X9,XZR", "ASRV (ASRV) | reg X9/64 | reg X9/64 | reg XZR/64"},
		{ArchAArch64, "MOVK W0,#1,LSL #16", "MOVK (MOVK) | reg X0/32=W0 | imm 1 LSL 16"},
		{ArchAArch64, "SXTW X11,W6", "SXTW (SXTW) | reg X11/64 | reg X6/32=W6"},
		{ArchAArch64, "SMADDL X3,W2,W1,X3", "SMADDL (SMADDL) | reg X3/64 | reg X2/32=W2 | reg X1/32=W1 | reg X3/64"},
		// Branches and conditions.
		{ArchAArch64, "B.GT .-8", "B.GT (B.GT) | label .-8"},
		{ArchAArch64, "b.tstop L0", "b.tstop (B.LT) | label L0"},
		{ArchAArch64, "CBNZ X1,L0", "CBNZ (CBNZ) | reg X1/64 | label L0"},
		{ArchAArch64, "TBNZ W0,#31,L0", "TBNZ (TBNZ) | reg X0/32=W0 | imm 31 | label L0"},
		{ArchAArch64, "CSEL X0,X1,X2,hs", "ERROR expected condition (EQ, NE, ...), found 'hs'"},
		{ArchAArch64, "CSETM W3, MI", "CSETM (CSETM) | reg X3/32=W3 | cond MI"},
		{ArchAArch64, "RET", "RET (RET)"},
		{ArchAArch64, "BLR X2", "BLR (BLR) | reg X2/64"},
		// Atomics and exclusives.
		{ArchAArch64, "LDUMINALH W1,W2,[X3]", "LDUMINALH (LDUMINALH) | reg X1/32=W1 | reg X2/32=W2 | mem base X3/64 offset 0"},
		{ArchAArch64, "LDADDH X1,X2,[X3]", "ERROR expected W register, found 'X1'"},
		{ArchAArch64, "STEORLB W1,[X3]", "STEORLB (STEORLB) | reg X1/32=W1 | mem base X3/64 offset 0"},
		{ArchAArch64, "STEORA W1,[X3]", "ERROR unknown AArch64 instruction STEORA"},
		{ArchAArch64, "CASPAL W6,W7,W2,W3,[X5]", "CASPAL (CASPAL) | reg X6/32=W6 | reg X7/32=W7 | reg X2/32=W2 | reg X3/32=W3 | mem base X5/64 offset 0"},
		{ArchAArch64, "SWPALB W0,WZR,[X1,#0]", "SWPALB (SWPALB) | reg X0/32=W0 | reg XZR/32=WZR | mem base X1/64 offset 0"},
		{ArchAArch64, "STLXRH W0,W1,[X2]", "STLXRH (STLXRH) | reg X0/32=W0 | reg X1/32=W1 | mem base X2/64 offset 0"},
		{ArchAArch64, "STXR X0,X1,[X2]", "ERROR expected W register, found 'X0'"},
		{ArchAArch64, "LDAXP W1,W2,[X3]", "LDAXP (LDAXP) | reg X1/32=W1 | reg X2/32=W2 | mem base X3/64 offset 0"},
		// Barriers and system instructions.
		{ArchAArch64, "DMB ish", "DMB (DMB) | barrier ISH"},
		{ArchAArch64, "DSB NSHLD", "DSB (DSB) | barrier NSHLD"},
		{ArchAArch64, "DMB", "ERROR DMB: expected barrier option (SY, ISH, ISHLD, ...), found end of instruction"},
		{ArchAArch64, "ISB SY", "ERROR expected end of instruction, found 'SY'"},
		{ArchAArch64, "IC IVAU,X3", "IC (IC) | sys IVAU | reg X3/64"},
		{ArchAArch64, "TLBI VAE1IS,X0", "TLBI (TLBI) | sys VAE1IS | reg X0/64"},
		{ArchAArch64, "MSR ELR_EL1,X9", "MSR (MSR) | sys ELR_EL1 | reg X9/64"},
		{ArchAArch64, "HINT #0", "HINT (HINT) | imm 0"},
		{ArchAArch64, "STG X2,[X5]", "STG (STG) | reg X2/64 | mem base X5/64 offset 0"},
		{ArchAArch64, "LDR W0,[X1,", "ERROR expected ]"},
		{ArchAArch64, "LDR W0,,[X1]", "ERROR expected operand, found ','"},
		{ArchAArch64, "MOV W0,#", "ERROR expected integer in operand '#'"},
		// RISCV.
		{ArchRISCV, "lw t0,(sp)", "lw (lw) | reg x5/64=t0 | mem base x2/64=sp offset 0"},
		{ArchRISCV, "sd s10,-16(fp)", "sd (sd) | reg x26/64=s10 | mem base x8/64=fp offset -16"},
		{ArchRISCV, "lr.d.aqrl a0,0(a1)", "lr.d.aqrl (lr.d.aq.rl) | reg x10/64=a0 | mem base x11/64=a1 offset 0"},
		{ArchRISCV, "sc.w.aq x1,x2,0(x3)", "sc.w.aq (sc.w.aq) | reg x1/64 | reg x2/64 | mem base x3/64 offset 0"},
		{ArchRISCV, "amomaxu.d.rl x1,x2,(x3)", "amomaxu.d.rl (amomaxu.d.rl) | reg x1/64 | reg x2/64 | mem base x3/64 offset 0"},
		{ArchRISCV, "lwu.aq x1,4(x2)", "lwu.aq (lwu.aq) | reg x1/64 | mem base x2/64 offset 4"},
		{ArchRISCV, "ldu x1,4(x2)", "ERROR unknown RISCV instruction ldu"},
		{ArchRISCV, "fence iorw,ow", "fence (fence) | fence iorw | fence ow"},
		{ArchRISCV, "fence rw", "ERROR fence: expected fence set (r, w, rw, ir, ow, iorw), found end of instruction"},
		{ArchRISCV, "bgeu x1,x2,L1", "bgeu (bgeu) | reg x1/64 | reg x2/64 | label L1"},
		{ArchRISCV, "slli x1,x2,3", "slli (slli) | reg x1/64 | reg x2/64 | imm 3"},
		{ArchRISCV, "li x1,0x10", "li (li) | reg x1/64 | imm 16"},
		{ArchRISCV, "sext.w x1,x2", "sext.w (sext.w) | reg x1/64 | reg x2/64"},
		// PPC.
		{ArchPPC, "lwz r1,8(r2)", "lwz (lwz) | reg r1/64 | mem base r2/64 offset 8"},
		{ArchPPC, "lwz r1,8,r2", "lwz (lwz) | reg r1/64 | mem base r2/64 offset 8"},
		{ArchPPC, "lwa r1,8,r2", "ERROR expected memory operand d(rA), found '8'"},
		{ArchPPC, "LWARX R1,R0,R2", "LWARX (lwarx) | reg r1/64 | mem base r0/64 index r2/64"},
		{ArchPPC, "ldarx r1,r0,r2", "ldarx (ldarx) | reg r1/64 | mem base r0/64 index r2/64"},
		{ArchPPC, "stdcx. r1,r0,r2", "stdcx. (stdcx.) | reg r1/64 | mem base r0/64 index r2/64"},
		{ArchPPC, "bnl L0", "bnl (bge) | label L0"},
		{ArchPPC, "cmpwi r1,-1", "cmpwi (cmpwi) | reg r1/64 | imm -1"},
		{ArchPPC, "cmplwi cr1,r1,1", "ERROR expected register, found 'cr1'"},
		{ArchPPC, "rlwinm r1,r2,0,16,31", "rlwinm (rlwinm) | reg r1/64 | reg r2/64 | imm 0 | imm 16 | imm 31"},
		{ArchPPC, "mtlr r3", "mtlr (mtlr) | reg r3/64"},
		{ArchPPC, "sync 0", "ERROR expected end of instruction, found '0'"},
	} {
		t.Run(string(tc.arch)+"/"+tc.instr, func(t *testing.T) {
			tst, err := Parse("t.litmus", []byte(asmTest(tc.arch, tc.instr)))
			if want, ok := strings.CutPrefix(tc.want, "ERROR "); ok {
				require.Error(t, err)
				require.Contains(t, err.Error(), want)
				require.True(t, strings.HasPrefix(err.Error(), "t.litmus:4:"), "error not on the instruction's line: %v", err)
				return
			}
			require.NoError(t, err)
			code := tst.Procs[0].Code
			require.Len(t, code, 1)
			in := code[0]
			got := in.Op + " (" + in.Mnemonic + ")"
			for _, a := range in.Args {
				got += " | " + operandDump(a)
				require.Equal(t, tst.File.Position(a.Pos()).Line, 4)
				require.True(t, a.Pos() < a.End() && a.End() <= in.End(), "operand %q spans %d..%d outside its instruction %d..%d", a.Text, a.Pos(), a.End(), in.Pos(), in.End())
			}
			require.Equal(t, tc.want, got)
			requireRoundTrip(t, "t.litmus", tst)
		})
	}
}

// TestArchRegister checks the register names of the init block and the
// final section.
func TestArchRegister(t *testing.T) {
	for _, tc := range []struct {
		arch Arch
		name string
		want string // Name/Width, or "" when not a register
	}{
		{ArchAArch64, "X1", "X1/64"}, {ArchAArch64, "w1", "X1/32"}, {ArchAArch64, "WZR", "XZR/32"},
		{ArchAArch64, "SP", "SP/64"}, {ArchAArch64, "X31", ""}, {ArchAArch64, "X01", ""}, {ArchAArch64, "x", ""},
		{ArchRISCV, "a0", "x10/64"}, {ArchRISCV, "x31", "x31/64"}, {ArchRISCV, "fp", "x8/64"}, {ArchRISCV, "s10", "x26/64"},
		{ArchRISCV, "x32", ""}, {ArchRISCV, "r1", ""},
		{ArchPPC, "r31", "r31/64"}, {ArchPPC, "R3", "r3/64"}, {ArchPPC, "cr7", "cr7/4"}, {ArchPPC, "r32", ""}, {ArchPPC, "cr8", ""},
		{ArchX86, "EAX", ""}, {ArchC, "r0", ""},
	} {
		r, ok := ArchRegister(tc.arch, tc.name)
		got := ""
		if ok {
			got = fmt.Sprintf("%s/%d", r.Name, r.Width)
		}
		require.Equal(t, tc.want, got, "%s %s", tc.arch, tc.name)
	}
}
