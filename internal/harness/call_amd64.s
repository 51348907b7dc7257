#include "textflag.h"

// func callJIT(code, ctx uintptr)
//
// callJIT calls the generated thread function at code with its context in
// DI. The function saves nothing: it leaves SP, BP (Go's frame pointer) and
// R14 (Go's g) alone and clobbers the other general registers and the
// flags, which an ABI0 callee may.
TEXT ·callJIT(SB), NOSPLIT, $0-16
	MOVQ code+0(FP), AX
	MOVQ ctx+8(FP), DI
	CALL AX
	RET

// func readCounter() uint64
//
// readCounter reads the time-stamp counter, the clock of the timebase sync.
TEXT ·readCounter(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET
