package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/stretchr/testify/require"
)

// kernelTestDirs hold the kernel's classic litmus tests in the shared
// corpus.
var kernelTestDirs = []string{
	corpus + "/lkmm/tools/memory-model/litmus-tests",
	corpus + "/lkmm/Documentation/litmus-tests/atomic",
	corpus + "/lkmm/Documentation/litmus-tests/locking",
	corpus + "/lkmm/Documentation/litmus-tests/rcu",
}

// TestClassicPerArch: the kernel's classic tests get, under the LKMM and
// compiled for each architecture, the verdicts of
// testdata/kcomp-classic.tsv, where each row says why from the hardware
// behaviour the kernel's documents describe. Every test of the corpus
// directories has a row, and every row a test.
func TestClassicPerArch(t *testing.T) {
	if _, err := os.Stat(kernelTestDirs[0]); err != nil {
		t.Skip("no shared corpus")
	}
	data, err := os.ReadFile("testdata/kcomp-classic.tsv")
	require.NoError(t, err)
	cols := []Model{LKMM, AArch64, AArch64LLSC, RISCV, PPC}
	want := map[string][]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		require.Len(t, f, 2+len(cols), "row %q", l)
		require.NotEmpty(t, strings.TrimSpace(f[len(f)-1]), "row %s has no reason", f[0])
		want[f[0]] = f[1 : 1+len(cols)]
	}
	seen := map[string]bool{}
	perArch := make([]int, len(cols))
	for _, dir := range kernelTestDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
		require.NoError(t, err)
		for _, file := range files {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			test, err := parseSrc(file, string(src))
			require.NoError(t, err)
			w, ok := want[test.Name]
			if !assertRow(t, ok, "%s has no row in testdata/kcomp-classic.tsv", test.Name) {
				continue
			}
			seen[test.Name] = true
			for i, m := range cols {
				got := ""
				res, err := Check(context.Background(), test, m, Options{})
				switch {
				case err != nil && kcomp.IsNotCompiled(err):
					got = "n/a"
				case err != nil:
					t.Errorf("%s under %s: %v", test.Name, m, err)
					continue
				default:
					got = res.Verdict.String()
					perArch[i]++
				}
				if got != w[i] {
					t.Errorf("%s under %s: %s, the table says %s", test.Name, m, got, w[i])
				}
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("testdata/kcomp-classic.tsv: %s is no test of the corpus", name)
		}
	}
	for i, m := range cols {
		t.Logf("%s: %d classic tests checked", m, perArch[i])
	}
}

func assertRow(t *testing.T, ok bool, format string, args ...any) bool {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
	return ok
}
