package model

import (
	"context"
	"errors"
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/op"
	"github.com/litmus-dev/litmus/model/report"
)

// This file is the one dispatch from a parsed test to an engine: Check
// resolves the test's names (resolve.go), and check chooses the family of
// model m; each family has its own file (op.go, lkmm.go, cat.go,
// kcomp.go), which answers in report's terms and never calls back here. The answer of the axiomatic families is put in
// report's shape once, in axiomresult.go.

// ErrNotSupported is returned (wrapped) by Check for a model this package
// does not run: the zero Model, which no name parses to.
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

// check runs the engine of model m's family on t, which Resolve
// accepted.
func check(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	if m.k != kCat && m.k != kNone && (opt.SkipAll || len(opt.SkipChecks) > 0) {
		// herd's -skipchecks and -through act on a cat model's checks.
		return nil, fmt.Errorf("%s: the %s model is an engine, not a cat model: herd7's -skipchecks and -through apply to cat models (--cat FILE, --model-dir DIR for the LKMM's own checks, aarch64, riscv, ppc)", t.Name, m)
	}
	switch m.k {
	case kSC, kTSO, kPSO:
		return checkOp(ctx, t, m, opt)
	case kLKMM:
		return checkLKMM(ctx, t, opt)
	case kCat:
		if err := m.cat.reads(t); err != nil {
			return nil, err
		}
		if t.Arch == litmus.ArchC && m.cat.target != nil {
			// An architecture model on a C test: the test compiled as
			// the kernel compiles it (model/kcomp).
			return checkCompiled(ctx, t, m, opt)
		}
		return checkCat(ctx, t, m, opt)
	}
	return nil, fmt.Errorf("%s: %w", m, ErrNotSupported)
}
