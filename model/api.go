// Package model gives litmus tests their meaning under a choice of memory
// models, and is the one entry point the commands use (Check, Fences). It
// chooses the engine; the engines live in their own packages:
//
//   - model/op, the operational core: a C or X86 test compiled to an IR and
//     run on the SC, x86-TSO or PSO machine, every interleaving explored.
//   - model/axiom, the axiomatic core: events, candidate executions (rf and
//     co enumeration), relations as bitsets, conditions over final states,
//     limits. The native LKMM and the cat interpreter both build on it.
//   - model/lkmm, the Linux-kernel memory model coded in Go (the fast path).
//   - model/cat (the language) and model/cat/interp (its interpreter): any
//     herd cat model as data, with herd's own models embedded (cat/lib).
//   - model/arch, AArch64, RISC-V, POWER and X86 instructions as events for
//     the cat models; model/kmap, the kernel's primitive-to-instruction
//     mapping per architecture.
//   - model/report, what every engine returns: Result, Verdict, State,
//     Trace, and herd's printing of them (re-exported here).
//
// The engines never print: Result, State and Trace carry the data, and
// their String methods render it in herd's words.
package model

import (
	"context"
	"errors"
	"fmt"
	"github.com/litmus-dev/litmus/model/op"
	"github.com/litmus-dev/litmus/model/report"
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

// ErrNotSupported is returned (wrapped) by Check for a model this package
// does not run, such as LKMM.
var ErrNotSupported = errors.New("model not supported yet")

// CheckProp reports, as a *PropError, whether proposition p names a
// thread, register or location that test t does not have. It returns nil
// as well when t itself has an error, which Check reports.
func CheckProp(t *litmus.Test, p litmus.Prop) error {
	if err := op.CheckProp(t, p); err != nil {
		return report.AsPropError(err)
	}
	return nil
}

// Check explores test t under model m and returns the reachable final
// states, the verdict and the traces that explain it. An error is returned
// for a test the engine cannot give a meaning to (an unknown location, a
// pointer misuse, an unsupported instruction), as a litmus.ErrorList with
// file:line:col positions; a search cut short by opt's bounds or ctx is
// not an error but a Result with Verdict Unknown.
//
// Check resolves t first (Resolve, with the default options); a command
// that checks a test under several models resolves it once and calls
// Program.Check for each.
func Check(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	p, err := Resolve(t, ResolveOptions{})
	if err != nil {
		return nil, err
	}
	return p.Check(ctx, m, opt)
}

// check runs the engine of model m on t, which Resolve accepted.
func check(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	if !Supported(m) {
		return nil, fmt.Errorf("%s: %w", m, ErrNotSupported)
	}
	if m.k != kCat && (opt.SkipAll || len(opt.SkipChecks) > 0) {
		// herd's -skipchecks and -through act on a cat model's checks.
		return nil, fmt.Errorf("%s: the %s model is an engine, not a cat model: herd7's -skipchecks and -through apply to cat models (--cat FILE, --model-dir DIR for the LKMM's own checks, aarch64, riscv, ppc)", t.Name, m)
	}
	if m == LKMM {
		return checkLKMM(ctx, t, opt)
	}
	if m.k == kCat {
		return checkCat(ctx, t, m, opt)
	}
	return op.Check(ctx, t, machines[m], opt)
}

// machines are the operational models' machines in model/op.
var machines = map[Model]op.Machine{SC: op.SC, TSO: op.TSO, PSO: op.PSO}
