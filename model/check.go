package model

import (
	"context"
	"errors"

	"github.com/litmus-dev/litmus/litmus"
)

func check(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	return nil, errors.New("model: not implemented yet")
}
