package interp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// TestThinAir runs the kernel's linux-kernel.cat on the tests of
// model/lkmm/testdata/thinair (cycles of copies, values only a cycle
// justifies, written from the LKMM issue's descriptions) and
// model/lkmm/testdata/herdgen (random small tests, half of them rings of
// copies with operations on the way) and compares states, flags, verdict
// and counts with herd7 7.58's. The differences listed in herdgen/KNOWN
// must still be differences: the list says what is not matched yet.
func TestThinAir(t *testing.T) {
	src := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.cfg")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no shared corpus")
	}
	m, err := LoadConfig(src, Options{})
	require.NoError(t, err)
	known := readKnown(t, "../../lkmm/testdata/herdgen/KNOWN")
	checked := 0
	for _, dir := range []string{"../../lkmm/testdata/thinair", "../../lkmm/testdata/herdgen", "../../lkmm/testdata/exprpo"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
		require.NoError(t, err)
		for _, f := range files {
			want, err := os.ReadFile(strings.TrimSuffix(f, ".litmus") + ".expected")
			if os.IsNotExist(err) {
				continue
			}
			require.NoError(t, err)
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			test, err := litmus.Parse(f, b)
			require.NoError(t, err)
			p, err := lkmm.Program(test, 0)
			require.NoError(t, err, f)
			res, err := m.Check(context.Background(), p, CheckOptions{})
			require.NoError(t, err, f)
			got := herdBlock(test.Name, res)
			name := strings.TrimSuffix(filepath.Base(f), ".litmus")
			if _, ok := known[name]; ok {
				if got == string(want) {
					t.Errorf("%s: listed in KNOWN but now agrees with herd7: remove it from the list", f)
				}
				continue
			}
			if got != string(want) {
				t.Errorf("%s: herd7 says\n%sinterpreter says\n%s", f, want, got)
			}
			checked++
		}
	}
	require.Greater(t, checked, 400)
}

// herdBlock prints a result as the .expected files hold herd's: the
// States block, the flags and the Observation line.
func herdBlock(name string, res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "States %d\n", res.States.Len())
	for _, s := range res.States.All() {
		b.WriteString(s.String() + "\n")
	}
	flags := append([]string(nil), res.Flags...)
	sort.Strings(flags)
	for _, f := range flags {
		fmt.Fprintf(&b, "Flag %s\n", f)
	}
	fmt.Fprintf(&b, "Observation %s %s %d %d\n", name, res.Verdict, res.Positive, res.Negative)
	return b.String()
}

// readKnown reads a KNOWN file: "NAME: why" per line, # comments.
func readKnown(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, why, _ := strings.Cut(line, ":")
		out[strings.TrimSpace(name)] = strings.TrimSpace(why)
	}
	return out
}
