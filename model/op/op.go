// Package op is the operational core: it compiles a parsed C or X86 test
// to a small IR (compile*.go, ir.go), runs it on an operational machine
// (sequential consistency, x86-TSO or PSO: sc.go, tso.go, pso.go, with
// exec.go's instruction semantics) and explores every interleaving, with
// a partial-order reduction (explore.go, por.go, state.go), to find the
// exact set of reachable final states, herd7-compatible verdicts and
// shortest witnesses (trace.go), invariants on every state and stuck
// threads (check.go, dropped.go).
//
// It returns package report's Result, as every engine of package model
// does; package model chooses the engine. The engine never prints.
package op

import (
	"context"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// Machine is an operational memory model.
type Machine int

// The machines.
const (
	SC  Machine = iota + 1 // sequential consistency
	TSO                    // x86-TSO: one FIFO store buffer per thread
	PSO                    // SPARC PSO: one FIFO per thread and address
)

// String returns the machine's model name: "sc", "tso" or "pso".
func (m Machine) String() string {
	switch m {
	case SC:
		return "sc"
	case TSO:
		return "tso"
	case PSO:
		return "pso"
	}
	return "machine?"
}

// Check explores test t on machine m and returns the reachable final
// states, the verdict and the traces that explain it. Errors are as
// model.Check describes them; Result.Model is the machine's name.
func Check(ctx context.Context, t *litmus.Test, m Machine, opt report.Options) (*report.Result, error) {
	return check(ctx, t, m, opt)
}

// CheckProp reports whether proposition p names a thread, register or
// location that test t does not have (an error without position: the
// caller maps it), or nil, also when t itself has an error, which Check
// reports.
func CheckProp(t *litmus.Test, p litmus.Prop) error {
	prog, err := compile(t)
	if err != nil {
		return nil
	}
	_, err = prog.compileProp(p)
	return err
}
