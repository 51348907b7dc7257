package kcomp_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kcomp"
)

var archModels = []model.Model{model.AArch64, model.AArch64LLSC, model.RISCV, model.PPC}

// rcuTests returns the C tests with an RCU grace period: every one of
// the shared corpus's lkmm/ tree, and testdata/rcu's.
func rcuTests(t *testing.T) []string {
	files, err := filepath.Glob("testdata/rcu/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	lk := filepath.Join(shared.Corpus(), "lkmm")
	if _, err := os.Stat(lk); err == nil {
		require.NoError(t, filepath.Walk(lk, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".litmus") {
				if src, err := os.ReadFile(p); err == nil && strings.Contains(string(src), "synchronize_rcu") {
					files = append(files, p)
				}
			}
			return err
		}))
	}
	sort.Strings(files)
	return files
}

// extraStates checks file under the LKMM and under every architecture
// model; for a test the LKMM finds free of data races, it returns, per
// model, the final states the model reaches that the LKMM does not.
func extraStates(t *testing.T, file string) (map[string][]string, bool) {
	test, err := litmus.ParseFile(file)
	require.NoError(t, err)
	opt := model.Options{Timeout: 20 * time.Second, NoWitness: true}
	lk, err := model.Check(context.Background(), test, model.LKMM, opt)
	require.NoError(t, err, file)
	if lk.Verdict == model.Unknown || len(lk.Flags) > 0 {
		return nil, false // no answer, or a data race: the outcome is undefined
	}
	allowed := map[string]bool{}
	for _, s := range lk.States.All() {
		allowed[s.String()] = true
	}
	out := map[string][]string{}
	for _, m := range archModels {
		res, err := model.Check(context.Background(), test, m, opt)
		require.NoError(t, err, "%s under %s", file, m)
		require.NotEqual(t, model.Unknown, res.Verdict, "%s under %s: %s", file, m, res.Reason)
		for _, s := range res.States.All() {
			if !allowed[s.String()] {
				out[m.String()] = append(out[m.String()], s.String())
			}
		}
	}
	return out, true
}

// TestToyRCUWeakerThanLKMM: every data-race-free test with an RCU grace
// period, of the shared corpus and of testdata/rcu, compiles for every
// architecture (the toy RCU of rcu.go), gets an exact verdict (its
// spin_locks' retries end the path: no loop is unrolled), and reaches
// only final states the LKMM reaches. With the toy's locks left out
// (RCUToyBroken) the same check fails: on RCU-MP and RCU+sync+read
// every architecture reaches a state RCU forbids.
func TestToyRCUWeakerThanLKMM(t *testing.T) {
	compared := 0
	for _, f := range rcuTests(t) {
		extra, drf := extraStates(t, f)
		if !drf {
			t.Logf("%s: a data race or no LKMM answer, not compared", f)
			continue
		}
		compared++
		require.Empty(t, extra, "%s: states the LKMM does not allow", f)
	}
	t.Logf("%d data-race-free RCU tests compared under %d architecture models", compared, len(archModels))

	*kcomp.RCUToyBroken = true
	defer func() { *kcomp.RCUToyBroken = false }()
	broken := []string{"testdata/rcu/RCU-MP.litmus"}
	if f := filepath.Join(shared.Corpus(), "lkmm/Documentation/litmus-tests/rcu/RCU+sync+read.litmus"); fileExists(f) {
		broken = append(broken, f)
	}
	for _, f := range broken {
		extra, drf := extraStates(t, f)
		require.True(t, drf, f)
		for _, m := range archModels {
			require.NotEmpty(t, extra[m.String()], "%s under %s: the broken RCU mapping went unnoticed", f, m)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
