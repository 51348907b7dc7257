package op

import (
	"context"
	"testing"

	"github.com/litmus-dev/litmus/model/report"
	"github.com/stretchr/testify/require"
)

func run(t *testing.T, src string, m Machine, opt report.Options) *report.Result {
	t.Helper()
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	res, err := Check(context.Background(), test, m, opt)
	require.NoError(t, err)
	return res
}

func stateLines(r *report.Result) []string {
	var out []string
	for _, s := range r.States.All() {
		out = append(out, s.String())
	}
	return out
}
