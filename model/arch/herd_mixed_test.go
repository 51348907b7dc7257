package arch

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/internal/herdout"
)

// herdUnaligned is herd's error for an access outside its symbol or not
// aligned to its size, as its stderr has it.
var herdUnaligned = regexp.MustCompile(`Unaligned or out-of-bound access: [^ ]+, \d+ bytes`)

// checkMixed builds test file f as the command does (again in herd's
// mixed-size meaning when it turns out to be mixed-size) and checks it
// under m.
func checkMixed(t *testing.T, m *interp.Model, f string) (*interp.Result, error) {
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	test, err := litmus.Parse(f, src)
	require.NoError(t, err)
	p, err := Program(test, Options{})
	require.NoError(t, err)
	res, err := m.Check(context.Background(), p, interp.CheckOptions{})
	if !IsMixed(err) {
		return res, err
	}
	if p, err = Program(test, Options{Mixed: true}); err != nil {
		return nil, err
	}
	return m.Check(context.Background(), p, interp.CheckOptions{})
}

// TestHerdMixedArrays runs the generated mixed-size tests of
// testdata/herd-mixed (arrays, accesses across cells, overlapping and
// misaligned ones) under aarch64.cat against herd7 7.58 -variant mixed:
// the same final states, verdict and counts, or herd's error where herd
// rejects the test. It also holds the corpus's mixed-size tests that herd
// rejects to the same error.
func TestHerdMixedArrays(t *testing.T) {
	files, err := filepath.Glob("testdata/herd-mixed/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	m, err := interp.LoadLib("aarch64.cat", interp.Options{})
	require.NoError(t, err)
	answered, rejected := 0, 0
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".litmus"), func(t *testing.T) {
			res, err := checkMixed(t, m, f)
			if herr, rerr := os.ReadFile(f + ".err"); rerr == nil {
				want := herdUnaligned.FindString(string(herr))
				require.NotEmpty(t, want, "herd's error: %s", herr)
				require.Error(t, err, "herd rejects it: %s", want)
				require.Contains(t, strings.ToLower(err.Error()), strings.ToLower(want))
				rejected++
				return
			}
			require.NoError(t, err)
			h, err := herdout.Read(f + ".out")
			require.NoError(t, err)
			var got []string
			for _, s := range res.States.All() {
				got = append(got, s.String())
			}
			require.Equal(t, h.States, got, "final states")
			require.Equal(t, h.Observation, res.Verdict.String(), "verdict")
			require.Equal(t, h.Pos, res.Positive, "positive")
			require.Equal(t, h.Neg, res.Negative, "negative")
			answered++
		})
	}
	require.Equal(t, len(files), answered+rejected, "every test answered as herd or rejected as herd")
	// The corpus's mixed-size tests that herd rejects.
	errs, _ := filepath.Glob(filepath.Join(corpus, "expected/aarch64/arch/aarch64/dat3m/litmus/AARCH64/mixed/*.err"))
	for _, e := range errs {
		herr, err := os.ReadFile(e)
		require.NoError(t, err)
		want := herdUnaligned.FindString(string(herr))
		if want == "" {
			continue // a timeout, not an answer
		}
		rel, _ := filepath.Rel(filepath.Join(corpus, "expected/aarch64"), strings.TrimSuffix(e, ".err"))
		_, err = checkMixed(t, m, filepath.Join(corpus, rel))
		require.Error(t, err, rel)
		require.Contains(t, strings.ToLower(err.Error()), strings.ToLower(want), rel)
		rejected++
	}
	t.Logf("%d tests with herd's states and counts, %d with herd's error", answered, rejected)
}
