#include "textflag.h"

// func callJIT(code, ctx uintptr)
//
// callJIT calls the generated thread function at code with its context in
// R0. The function leaves R18 (the platform register), R26-R29 (Go's
// closure context, assembler temporary, g and frame pointer) and R30 alone;
// it clobbers the other general registers and the flags, which an ABI0
// callee may. The frame makes the assembler save LR.
TEXT ·callJIT(SB), NOSPLIT, $16-16
	MOVD code+0(FP), R9
	MOVD ctx+8(FP), R0
	CALL (R9)
	RET

// func readCounter() uint64
//
// readCounter reads the virtual counter CNTVCT_EL0, the clock of the
// timebase sync.
TEXT ·readCounter(SB), NOSPLIT, $0-8
	ISB  $15
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func counterFreq() uint64
TEXT ·counterFreq(SB), NOSPLIT, $0-8
	MRS  CNTFRQ_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func syncICache(addr, n uintptr)
//
// syncICache makes n bytes of code written at addr visible to instruction
// fetch: clean the data cache and invalidate the instruction cache to the
// point of unification, line by line (Arm ARM B2.4.4, the sequence the
// kernel's __flush_icache_range uses).
TEXT ·syncICache(SB), NOSPLIT, $0-16
	MOVD addr+0(FP), R0
	MOVD n+8(FP), R1
	ADD  R0, R1, R1
	MRS  CTR_EL0, R2
	// D-cache line: 4 << CTR_EL0.DminLine (bits 19:16).
	UBFX $16, R2, $4, R3
	MOVD $4, R4
	LSL  R3, R4, R3
	SUB  $1, R3, R5
	BIC  R5, R0, R6
dloop:
	DC   CVAU, R6
	ADD  R3, R6, R6
	CMP  R1, R6
	BLO  dloop
	DSB  $11
	// I-cache line: 4 << CTR_EL0.IminLine (bits 3:0).
	AND  $15, R2, R3
	MOVD $4, R4
	LSL  R3, R4, R3
	SUB  $1, R3, R5
	BIC  R5, R0, R6
iloop:
	WORD $0xd50b7526 // IC IVAU, X6 (the Go assembler has no IC)
	ADD  R3, R6, R6
	CMP  R1, R6
	BLO  iloop
	DSB  $11
	ISB  $15
	RET
