package arch

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/internal/herdout"
	"github.com/stretchr/testify/require"
)

// corpus is the shared conformance corpus, beside the repository.
var corpus = shared.Corpus()

// knownDiff lists the corpus tests whose answer under the built-in model
// is still not herd's, with the reason. The test fails when one of them
// starts to agree (remove it from the list) as well as when any other
// test disagrees: the list can only shrink.
var knownDiff = map[string]string{}

// knownDiffDat3M lists the tests known to differ from herd running
// Dat3M's models, as knownDiff does for the stock models.
var knownDiffDat3M = map[string]string{
	"arch/aarch64/herd/catalogue/aarch64/tests/LB+rel+CAS.litmus": "Dat3M's model is not catdep: herd gives it register-only dependencies, with ctrl from a CAS's comparison to its write; litmus gives every AArch64 model aarch64deps.cat's (pick-data-dep here)",
}

// knownCountDiff lists the corpus tests whose states and verdict are
// herd's but whose Positive and Negative counts are not: AArch64 CAS
// tests in which the CAS may fail, where herd counts more executions
// (MP+rel+CASacq-noret-ok: herd 2 and 8, litmus 1 and 5), presumably from
// the events of a failing CAS that litmus does not make; not investigated
// further. Every other test's counts must be herd's.
var knownCountDiff = map[string]bool{
	"arch/aarch64/herd/catalogue/aarch64/tests/MP+rel+CAS-ok-bothRs-addr.litmus": true,
	"arch/aarch64/herd/catalogue/aarch64/tests/MP+rel+CASacq-noret-ok.litmus":    true,
	"arch/aarch64/herd/catalogue/aarch64/tests/MP+rel+CASnoret-ok-dmb.ld.litmus": true,
}

// archCorpus names, per architecture, the corpus folders and the
// expected-output folder of herd's stock model, which lib's model must
// match.
var archCorpus = []struct {
	model, expected string
	dirs            []string
}{
	{"aarch64.cat", "aarch64", []string{"arch/aarch64/herd/catalogue", "arch/aarch64/dat3m"}},
	{"riscv.cat", "riscv", []string{"arch/riscv/dat3m"}},
	{"ppc.cat", "ppc", []string{"arch/ppc/dat3m"}},
}

// TestCorpusStockModels checks every shared AArch64, RISC-V and POWER
// test under the built-in model of its architecture against herd7
// 7.58's output under its stock model: the same final states and the
// same verdict.
func TestCorpusStockModels(t *testing.T) {
	for _, ac := range archCorpus {
		t.Run(ac.expected, func(t *testing.T) {
			m, err := interp.LoadLib(ac.model, interp.Options{})
			require.NoError(t, err)
			compareCorpus(t, m, ac.expected, ac.dirs, knownDiff)
		})
	}
}

// TestCorpusDat3MModels runs Dat3M's models, read from the corpus by the
// interpreter, on every shared test of their architecture, against herd7
// running the same files.
func TestCorpusDat3MModels(t *testing.T) {
	for _, d := range []struct{ arch, model string }{{"aarch64", "aarch64"}, {"riscv", "riscv"}, {"ppc", "power"}} {
		t.Run(d.arch, func(t *testing.T) {
			path := filepath.Join(corpus, "arch", d.arch, "dat3m/cat/herd-"+d.model+".cat")
			if _, err := os.Stat(path); err != nil {
				t.Skip("no shared corpus")
			}
			m, err := interp.Load(path, interp.Options{})
			require.NoError(t, err)
			dirs := []string{"arch/" + d.arch}
			compareCorpus(t, m, "dat3m-"+d.model, dirs, knownDiffDat3M)
		})
	}
}

// compareCorpus checks the tests under dirs with model m against herd's
// outputs in expected/<expected>.
func compareCorpus(t *testing.T, m *interp.Model, expected string, dirs []string, known map[string]string) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no shared corpus")
	}
	var files []string
	for _, d := range dirs {
		filepath.Walk(filepath.Join(corpus, d), func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".litmus") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	require.NotEmpty(t, files)
	same, mixed := 0, 0
	for _, f := range files {
		rel, _ := filepath.Rel(corpus, f)
		h, err := herdout.Read(filepath.Join(corpus, "expected", expected, rel+".out"))
		if err != nil {
			continue // herd gave no answer (an .err file)
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, src)
		require.NoError(t, err, rel)
		p, err := Program(test, Options{})
		require.NoError(t, err, rel)
		res, err := m.Check(context.Background(), p, interp.CheckOptions{})
		if IsMixed(err) {
			mixed++
			p, err = Program(test, Options{Mixed: true})
			require.NoError(t, err, rel)
			res, err = m.Check(context.Background(), p, interp.CheckOptions{})
		}
		require.NoError(t, err, rel)
		var got []string
		for _, s := range res.States.All() {
			got = append(got, s.String())
		}
		agree := strings.Join(got, "\n") == strings.Join(h.States, "\n") && res.Verdict.String() == h.Observation
		if agree && !knownCountDiff[rel] && (res.Positive != h.Pos || res.Negative != h.Neg) {
			t.Errorf("%s: ours Positive %d Negative %d, herd %d %d", rel, res.Positive, res.Negative, h.Pos, h.Neg)
		}
		if why, isKnown := known[rel]; isKnown {
			require.False(t, agree, "%s now agrees with herd (%s): remove it from the known differences", rel, why)
			continue
		}
		if !agree {
			t.Errorf("%s: ours %s %v, herd %s %v", rel, res.Verdict, got, h.Observation, h.States)
			continue
		}
		same++
	}
	t.Logf("%s: %d tests agree with herd (%d of them mixed-size)", expected, same, mixed)
}
