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
