package model

import (
	"context"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/op"
)

// The operational family: SC, x86-TSO and PSO, each a machine of
// model/op that explores every interleaving of the test compiled to op's
// IR.

// machines are the operational models' machines in model/op.
var machines = map[Model]op.Machine{SC: op.SC, TSO: op.TSO, PSO: op.PSO}

// checkOp runs operational model m on t.
func checkOp(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	return op.Check(ctx, t, machines[m], opt)
}
