package interp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// TestModelVariants checks the interpreter on edited copies of the
// kernel's linux-kernel.cat (testdata/variants): with an axiom removed, a
// fence relation weakened or a rule added, every corpus C test must give
// herd7 7.58's states and verdict under the same edit.
func TestModelVariants(t *testing.T) {
	src := filepath.Join(corpus, "lkmm/tools/memory-model")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no shared corpus")
	}
	lines, err := os.ReadFile("testdata/variants/variants.txt")
	require.NoError(t, err)
	for _, line := range strings.Split(string(lines), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, ": ")
		old, repl, ok := strings.Cut(rest, " => ")
		require.True(t, ok, line)
		t.Run(name, func(t *testing.T) {
			want := readVariantExpected(t, filepath.Join("testdata/variants", name+".expected"))
			dir := t.TempDir()
			for _, f := range []string{"linux-kernel.cat", "linux-kernel.bell", "linux-kernel.def", "linux-kernel.cfg", "lock.cat"} {
				b, err := os.ReadFile(filepath.Join(src, f))
				require.NoError(t, err)
				if f == "linux-kernel.cat" {
					require.Contains(t, string(b), old)
					b = []byte(strings.Replace(string(b), old, repl, 1))
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
			}
			m, err := LoadConfig(filepath.Join(dir, "linux-kernel.cfg"), Options{})
			require.NoError(t, err)
			checked := 0
			for _, f := range corpusCTests(t) {
				rel, _ := filepath.Rel(corpus, f)
				exp, ok := want[rel]
				if !ok || exp == "" {
					continue // herd gave no answer
				}
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				test, err := litmus.Parse(f, b)
				require.NoError(t, err)
				p, err := lkmm.Program(test, 0)
				require.NoError(t, err, rel)
				res, err := m.Check(context.Background(), p, CheckOptions{})
				require.NoError(t, err, rel)
				var got strings.Builder
				fmt.Fprintf(&got, "States %d\n", res.States.Len())
				for _, s := range res.States.All() {
					got.WriteString(s.String() + "\n")
				}
				fmt.Fprintf(&got, "Observation %s %s %d %d\n", test.Name, res.Verdict, res.Positive, res.Negative)
				if got.String() != exp {
					t.Errorf("%s: herd7 says\n%sinterpreter says\n%s", rel, exp, got.String())
				}
				checked++
			}
			require.Greater(t, checked, 100)
		})
	}
}

// readVariantExpected reads NAME.expected: "== path" lines, each followed
// by herd's States block and Observation line for that test.
func readVariantExpected(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "== "); ok {
			cur = rest
			out[cur] = ""
			continue
		}
		out[cur] += strings.TrimRight(line, " ") + "\n"
	}
	require.NoError(t, sc.Err())
	return out
}
