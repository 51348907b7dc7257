package model

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kcomp"
)

// Model names a memory model: one of the operational machines (SC, TSO,
// PSO), the native Linux-kernel memory model (LKMM), or a cat model run
// by the interpreter (model/cat/interp): the built-in architecture models
// AArch64, RISCV and PPC, or one read from files (LoadCat, LoadKernel).
// Models compare with ==.
type Model struct {
	k   modelKind
	cat *catModel
}

type modelKind uint8

const (
	kNone modelKind = iota
	kSC
	kTSO
	kPSO
	kLKMM
	kCat
)

// The memory models with a native engine. LKMM is run by the axiomatic
// engine in model/lkmm.
var (
	SC   = Model{k: kSC}   // sequential consistency: one shared memory
	TSO  = Model{k: kTSO}  // x86-TSO: one FIFO store buffer per thread
	PSO  = Model{k: kPSO}  // SPARC PSO: one FIFO store buffer per thread and address
	LKMM = Model{k: kLKMM} // the Linux-kernel memory model (axiomatic; model/lkmm)
)

// The built-in architecture models, cat files of model/cat/lib run by the
// interpreter on tests of their architecture, and on C tests compiled as
// the kernel compiles them for that architecture (model/kcomp): AArch64
// with the LSE atomics, RISCV and PPC read both; AArch64LLSC is aarch64.cat
// on C tests compiled with the LL/SC atomics, and reads C tests only.
var (
	AArch64     = Model{k: kCat, cat: builtinCat("aarch64", "aarch64.cat", litmus.ArchAArch64, &kcomp.AArch64, false)}
	AArch64LLSC = Model{k: kCat, cat: builtinCat("aarch64-llsc", "aarch64.cat", litmus.ArchAArch64, &kcomp.AArch64LLSC, true)}
	RISCV       = Model{k: kCat, cat: builtinCat("riscv", "riscv.cat", litmus.ArchRISCV, &kcomp.RISCV, false)}
	PPC         = Model{k: kCat, cat: builtinCat("ppc", "ppc.cat", litmus.ArchPPC, &kcomp.PPC, false)}
)

var modelNames = map[Model]string{SC: "sc", TSO: "tso", PSO: "pso", LKMM: "lkmm"}

// String returns the model's lower-case name: "sc", "tso", "pso",
// "lkmm", "aarch64", "aarch64-llsc", "riscv", "ppc", or a cat model's
// name.
func (m Model) String() string {
	if s, ok := modelNames[m]; ok {
		return s
	}
	if m.cat != nil {
		return m.cat.name
	}
	return "Model(?)"
}

// Models returns the native models, in the order SC, TSO, PSO, LKMM.
func Models() []Model { return []Model{SC, TSO, PSO, LKMM} }

// ArchModels returns the built-in architecture models: AArch64,
// AArch64LLSC, RISCV, PPC.
func ArchModels() []Model { return []Model{AArch64, AArch64LLSC, RISCV, PPC} }

// Supported reports whether Check runs model m in this package.
func Supported(m Model) bool { return m.k != kNone }

// ParseModel parses a model name, case-insensitively: "sc", "tso" (also
// "x86", "x86tso", "x86-tso": on C tests x86-TSO runs the kernel's x86
// mapping), "pso", "lkmm" (also "linux-kernel"), "aarch64" (also "arm64",
// "armv8", "aarch64-lse", "arm64-lse"), "aarch64-llsc" (also
// "arm64-llsc"), "riscv" (also "rvwmo"), "ppc" (also "power",
// "powerpc").
func ParseModel(s string) (Model, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sc":
		return SC, nil
	case "tso", "x86", "x86tso", "x86-tso":
		return TSO, nil
	case "pso":
		return PSO, nil
	case "lkmm", "linux-kernel":
		return LKMM, nil
	case "aarch64", "arm64", "armv8", "aarch64-lse", "arm64-lse":
		return AArch64, nil
	case "aarch64-llsc", "arm64-llsc", "armv8-llsc":
		return AArch64LLSC, nil
	case "riscv", "rvwmo":
		return RISCV, nil
	case "ppc", "power", "powerpc":
		return PPC, nil
	}
	return Model{}, fmt.Errorf("unknown model %q (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv or ppc)", s)
}

// Applies reports whether m can check tests of dialect a: the operational
// models read C and X86 tests, the LKMM C tests, an architecture model
// tests of its architecture and C tests (compiled by model/kcomp), and a
// cat model read from a file C tests (with a bell) and the assembly
// dialects litmus has a semantics for.
func (m Model) Applies(a litmus.Arch) bool {
	switch m.k {
	case kSC, kTSO, kPSO:
		return a == litmus.ArchC || a == litmus.ArchX86 || a == litmus.ArchX8664
	case kLKMM:
		return a == litmus.ArchC || a == litmus.ArchLISA
	case kCat:
		return m.cat.applies(a)
	}
	return false
}

// Default returns the model a test of dialect a is checked under when
// none is named: x86-TSO for C and X86 tests, the architecture's model
// for AArch64, RISC-V and POWER tests, the LKMM for LISA tests (whose
// annotations name the kernel model's sets).
func Default(a litmus.Arch) Model {
	switch a {
	case litmus.ArchAArch64:
		return AArch64
	case litmus.ArchRISCV:
		return RISCV
	case litmus.ArchPPC:
		return PPC
	case litmus.ArchLISA:
		return LKMM
	}
	return TSO
}

// Axiomatic reports whether m is an axiomatic model (the LKMM, or a cat
// model): it judges whole candidate executions, with no interleaving and
// no intermediate states to show.
func (m Model) Axiomatic() bool { return m.k == kLKMM || m.k == kCat }
