package model

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// Program is a test whose names Resolve has checked: every name its code
// uses as a location is declared, every name of its final section names
// something of the test (unless ResolveOptions.FreshZero), its
// expectation lines are understood, and it has no more threads than the
// engines run. It is what every engine receives (Program.Check): the
// errors of the input are found once, before any engine runs, whatever
// models a command checks it under.
type Program struct {
	test *litmus.Test
}

// Test returns the checked test.
func (p *Program) Test() *litmus.Test { return p.test }

// ResolveOptions say how Resolve reads a test.
type ResolveOptions struct {
	// FreshZero accepts herd7's reading of a final section that names a
	// location no thread accesses and the init section does not declare,
	// or a register its thread never uses and the init does not set: a
	// fresh location or register holding 0. Without it such a name is
	// an error (a misspelling would make the condition check nothing).
	FreshZero bool
	// Models are the models of the run, besides the built-in ones, that
	// a "Result-<model>:" line may name (cat models read from files).
	Models []Model
}

// maxThreads is the most threads any engine runs: a thread set is a
// 64-bit mask in the operational search (model/op), and no model checks
// a test the others refuse.
const maxThreads = 64

// Resolve checks t's names and expectations and returns the checked
// program, or every error found, as a litmus.ErrorList with file:line:col
// positions.
func Resolve(t *litmus.Test, opt ResolveOptions) (*Program, error) {
	var errs litmus.ErrorList
	if len(t.Procs) > maxThreads {
		errs.Add(t.File.Position(t.Pos()), fmt.Sprintf("%d threads; at most %d are supported", len(t.Procs), maxThreads))
	}
	errs = append(errs, litmus.ResolveNames(t)...)
	if !opt.FreshZero {
		errs = append(errs, litmus.ResolveFinal(t)...)
	} else {
		// A thread that does not exist is an error in either reading.
		for _, e := range litmus.ResolveFinal(t) {
			if strings.HasPrefix(e.Msg, "no thread P") {
				errs = append(errs, e)
			}
		}
	}
	errs = append(errs, litmus.CheckExpectations(t)...)
	errs = append(errs, checkExpectModels(t, opt.Models)...)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	if t.Arch == litmus.ArchC && litmus.NeedsShortCircuit(t) {
		// The engines evaluate every operand of an expression; C skips
		// the right of && and || and one arm of ?:, and so must their
		// memory accesses: the engines get the test with those written
		// as ifs, as a code test's lowering writes them (the caller's
		// tree is not edited).
		c := litmus.Clone(t)
		if left := litmus.ShortCircuit(c); len(left) > 0 {
			for _, pos := range left {
				errs.Add(t.File.Position(pos), "an && || or ?: that skips a memory access in a for step, or in the condition of a do-while whose body has a continue, is not supported: write it as an if")
			}
			return nil, errs
		}
		t = c
	}
	return &Program{test: t}, nil
}

// checkExpectModels reports each "Result-<model>:" line whose name is a
// misspelling: no model (not a built-in model or one of its aliases, as
// ParseModel reads them, nor a model of the run), but close to one.
// A name close to none is the name of a model of another run (a cat
// file's, "Result-ARMLITE:"): not an error; a command notes that it
// checks no such model.
func checkExpectModels(t *litmus.Test, extra []Model) litmus.ErrorList {
	var errs litmus.ErrorList
	names := slices.Clone(modelSpellings)
	for _, m := range extra {
		names = append(names, m.String())
	}
	for _, e := range t.ExpectationLines() {
		if e.Model == "" || ExpectModel(e.Model, extra) {
			continue
		}
		if s := litmus.Suggest(strings.ToLower(e.Model), names); s != "" {
			msg := fmt.Sprintf("Result-%s: unknown model %s (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv, ppc or an alias: 'litmus help models', or a model of the run); did you mean Result-%s?", e.Model, e.Model, strings.ToUpper(s))
			errs.Add(t.File.Position(e.ModelPos), msg)
		}
	}
	return errs
}

// ExpectModel reports whether name, as written after "Result-", names a
// built-in model (in any case, or an alias) or one of models.
func ExpectModel(name string, models []Model) bool {
	if _, err := ParseModel(name); err == nil {
		return true
	}
	for _, m := range models {
		if strings.EqualFold(m.String(), name) {
			return true
		}
	}
	return false
}

// modelSpellings are the names ParseModel accepts, for suggestions.
var modelSpellings = []string{"sc", "tso", "x86", "x86tso", "x86-tso", "pso", "lkmm", "linux-kernel",
	"aarch64", "arm64", "armv8", "aarch64-lse", "arm64-lse", "aarch64-llsc", "arm64-llsc", "armv8-llsc",
	"riscv", "rvwmo", "ppc", "power", "powerpc"}

// Check explores the program under model m, as the package's Check does
// for a test Resolve accepts.
func (p *Program) Check(ctx context.Context, m Model, opt Options) (*Result, error) {
	return check(ctx, p.test, m, opt)
}
