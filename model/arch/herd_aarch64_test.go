package arch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/internal/herdout"
)

// TestHerdAArch64Regressions runs the tests of testdata/herd-aarch64,
// each written where litmus's AArch64 answer once differed from herd's,
// under aarch64.cat, against herd7 7.58's output recorded beside them.
func TestHerdAArch64Regressions(t *testing.T) {
	files, err := filepath.Glob("testdata/herd-aarch64/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	m, err := interp.LoadLib("aarch64.cat", interp.Options{})
	require.NoError(t, err)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".litmus"), func(t *testing.T) {
			h, err := herdout.Read(f + ".out")
			require.NoError(t, err)
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			test, err := litmus.Parse(f, src)
			require.NoError(t, err)
			p, err := Program(test, Options{})
			require.NoError(t, err)
			res, err := m.Check(context.Background(), p, interp.CheckOptions{})
			require.NoError(t, err)
			var got []string
			for _, s := range res.States.All() {
				got = append(got, s.String())
			}
			require.Equal(t, h.States, got, "final states")
			require.Equal(t, h.Observation, res.Verdict.String(), "verdict")
			require.Equal(t, h.Pos, res.Positive, "positive")
			require.Equal(t, h.Neg, res.Negative, "negative")
		})
	}
}
