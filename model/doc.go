// Package model gives litmus tests their meaning under a choice of memory
// models, and is the one entry point the commands use (Check, Fences).
//
// Its root is one dispatch and one file per family of model: resolve.go
// checks a test's names once (Resolve, Program), check.go chooses the
// family of the model, and the family's file runs its engine and answers
// in model/report's terms, never calling back:
//
//   - op.go, the operational models SC, TSO and PSO: model/op compiles a C
//     or X86 test to its IR and explores every interleaving on the
//     machine.
//   - lkmm.go, the Linux-kernel memory model coded in Go (model/lkmm, the
//     fast path).
//   - cat.go, a cat model run by model/cat/interp: the built-in AArch64,
//     RISC-V and POWER models on tests of their architecture (events by
//     model/arch), or a model read from files (LoadCat, LoadKernel).
//   - kcomp.go, an architecture model on a C test: the test compiled as
//     the kernel compiles it for that architecture (model/kcomp, with the
//     rows of model/kmap), then checked as in cat.go.
//
// axiomresult.go gives the three axiomatic families' answers the shape
// of every Result; fences.go weakens each ordering construct of a copy of
// a test in turn and checks it again; model.go names the models
// (ParseModel, Applies, Default). The engines build on model/axiom, the
// axiomatic core (events, candidate executions, relations, conditions).
// report.go re-exports model/report's vocabulary: Result, Verdict, State,
// Trace.
//
// The engines never print: Result, State and Trace carry the data, and
// their String methods render it in herd's words. docs/architecture.md
// follows `check FILE --model M` through these rooms for each family.
package model
