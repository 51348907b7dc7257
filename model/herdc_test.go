package model

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// herdCTests are the C tests whose herd7 form (litmus compile --model
// lkmm: litmus.HerdC after the lowering) is held to the original: the
// bundled tests, the code tests, and model/testdata/herdc's tests of each
// rewrite.
func herdCTests(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"../testdata/*.litmus", "../testdata/code/*.litmus", "testdata/code/*.litmus", "testdata/herdc/*.litmus"} {
		m, err := filepath.Glob(pat)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	return files
}

// herdForm parses file and returns it and its herd7 form, parsed back.
func herdForm(t *testing.T, file string) (orig, herd *litmus.Test, notes []litmus.HerdNote) {
	t.Helper()
	orig, err := litmus.ParseFile(file)
	require.NoError(t, err)
	h := litmus.Clone(orig)
	notes = litmus.HerdC(h)
	herd, err = litmus.Parse(file+".herd", litmus.Format(h))
	require.NoError(t, err, "the herd7 form of %s parses:\n%s", file, litmus.Format(h))
	return orig, herd, notes
}

// TestHerdCSameAnswers: the herd7 form of each test has the original's
// verdict and herd's execution counts under every model (the rewrites
// are exact; an architecture model that compiles the original but not
// its herd7 form, which divides where the original shifts, is skipped),
// unless the original has invariants, which the herd7 form
// leaves out and then only the final condition's answer is compared.
func TestHerdCSameAnswers(t *testing.T) {
	for _, file := range herdCTests(t) {
		orig, herd, notes := herdForm(t, file)
		if orig.Arch != litmus.ArchC {
			continue
		}
		models := allModels()
		if orig.Code == nil && !strings.Contains(file, "herdc") {
			// A bundled plain test's herd7 form differs in its bit and
			// refcount primitives only, whose events the LKMM and SC
			// hold; the code tests and the rewrites' own tests take
			// every model.
			models = []Model{SC, LKMM}
		}
		for _, n := range notes {
			if strings.HasPrefix(n.Msg, "loop:") {
				// A loop of the herd7 form that the await reduction does
				// not take is unrolled: seqcount-code's form took 25 s and
				// 7 GB under the LKMM. Such forms are held to the original
				// under SC, whose search runs the loops exactly.
				models = []Model{SC}
			}
		}
		for _, m := range models {
			if !m.Applies(orig.Arch) {
				continue
			}
			want, err := Check(context.Background(), orig, m, Options{})
			if err != nil && isArchModel(m) {
				continue // not compiled to the architecture
			}
			require.NoError(t, err, "%s under %s", file, m)
			got, err := Check(context.Background(), herd, m, Options{})
			if err != nil && isArchModel(m) {
				// The herd7 form divides where the test shifts: kcomp
				// compiles no division.
				t.Logf("herd7 form of %s under %s: %v", file, m, err)
				continue
			}
			require.NoError(t, err, "herd7 form of %s under %s", file, m)
			if got.Verdict == report.Unknown && want.Verdict != report.Unknown && len(got.Loops) > 0 {
				// herd7's while form of a do-while the original checks as
				// an await is a loop the reduction does not take: unrolled,
				// a bound, as herd7's own answer is (its note says so).
				t.Logf("herd7 form of %s under %s: %s (unrolled)", file, m, got.Reason)
				continue
			}
			require.Equal(t, want.Verdict, got.Verdict, "%s under %s", file, m)
			// With a loop, the execution counts depend on how it was
			// checked (an await of the original do-while drops the failed
			// iterations; herd7's while form repeats the first one), so
			// only the verdict is compared.
			if len(orig.Invariants) == 0 && len(want.Loops) == 0 && len(got.Loops) == 0 {
				require.Equal(t, [2]int{want.Positive, want.Negative}, [2]int{got.Positive, got.Negative}, "%s under %s: Positive, Negative", file, m)
			}
		}
	}
}

func isArchModel(m Model) bool {
	for _, a := range ArchModels() {
		if a.String() == m.String() {
			return true
		}
	}
	return false
}

// herd7Bin is herd7 from $HERD7 or the PATH, or "".
func herd7Bin() string {
	if p := os.Getenv("HERD7"); p != "" {
		return p
	}
	p, _ := exec.LookPath("herd7")
	return p
}

var observationRE = regexp.MustCompile(`(?m)^Observation \S+ (\w+) (\d+) (\d+)`)

// TestHerdCHerd7 runs herd7 -conf linux-kernel.cfg (the kernel's model
// from the shared corpus) on the herd7 form of each test that it can say
// exactly and compares herd's Observation with the LKMM engine's. It
// skips without herd7 ($HERD7 or herd7 on the PATH) or the corpus.
func TestHerdCHerd7(t *testing.T) {
	herd := herd7Bin()
	if herd == "" {
		t.Skip("no herd7 ($HERD7 or herd7 on the PATH): the herd7 forms are compared with litmus's own answers only (TestHerdCSameAnswers)")
	}
	cfgDir, err := filepath.Abs(shared.CorpusDir(t, "lkmm", "tools", "memory-model"))
	require.NoError(t, err)
	dir := t.TempDir()
	compared := 0
	for _, file := range herdCTests(t) {
		orig, _, notes := herdForm(t, file)
		if orig.Arch != litmus.ArchC {
			continue
		}
		if len(notes) > 0 {
			// herd7 refuses it, or answers for a bound of it (a loop) or
			// without its invariants: nothing to compare.
			t.Logf("%s: not compared with herd7: %v", file, notes)
			continue
		}
		h := litmus.Clone(orig)
		litmus.HerdC(h)
		path := filepath.Join(dir, filepath.Base(file))
		require.NoError(t, os.WriteFile(path, litmus.Format(h), 0o644))
		cmd := exec.Command(herd, "-conf", "linux-kernel.cfg", path)
		cmd.Dir = cfgDir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "herd7 on the herd7 form of %s:\n%s", file, out)
		m := observationRE.FindStringSubmatch(string(out))
		require.NotNil(t, m, "herd7 on the herd7 form of %s printed no Observation:\n%s", file, out)
		r, err := Check(context.Background(), orig, LKMM, Options{})
		require.NoError(t, err)
		ours := []string{r.Verdict.String(), strconv.Itoa(r.Positive), strconv.Itoa(r.Negative)}
		require.Equal(t, strings.Join(ours, " "), strings.Join(m[1:], " "), "%s: litmus's LKMM vs herd7 on its herd7 form", file)
		compared++
	}
	t.Logf("herd7 agreed on %d herd7 forms", compared)
	require.NotZero(t, compared)
}
