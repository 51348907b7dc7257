package model

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/stretchr/testify/require"
)

// TestRetryAsLoops: model/kcomp compiles a retry of a kernel sequence (an
// LL/SC loop, a CAS loop, a lock's spin) as the end of the thread's path
// with a filter, on the argument that a retry has the final states of a
// first attempt made later (the package comment). The kernel's classic
// tests whose compiled code retries are compiled both ways and checked
// as the assembly tests they are: the states of the real loops, which
// the model unrolls a bounded number of times, are the states of the
// path ends; when the unrolled search is complete, the two sets are
// equal. -short leaves out Documentation/litmus-tests.
func TestRetryAsLoops(t *testing.T) {
	if _, err := os.Stat(kernelTestDirs[0]); err != nil {
		t.Skip("no shared corpus")
	}
	asmModel := map[string]Model{"aarch64": AArch64, "aarch64-llsc": AArch64, "riscv": RISCV, "ppc": PPC}
	states := func(r *Result) []string {
		var out []string
		for _, s := range r.States.All() {
			out = append(out, s.String())
		}
		sort.Strings(out)
		return out
	}
	retried, equal := 0, 0
	dirs := kernelTestDirs
	if testing.Short() {
		dirs = dirs[:1] // Documentation/litmus-tests' locking tests take most of the 25 s
	}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
		require.NoError(t, err)
		for _, file := range files {
			test, err := litmus.ParseFile(file)
			require.NoError(t, err)
			for _, tg := range kcomp.Targets() {
				ends, err := kcomp.Compile(test, tg, kcomp.Options{})
				if kcomp.IsNotCompiled(err) {
					continue
				}
				require.NoError(t, err)
				if !strings.Contains(string(ends.Text), "RETRY") {
					continue
				}
				loops, err := kcomp.Compile(test, tg, kcomp.Options{RetryLoops: true})
				require.NoError(t, err)
				m := asmModel[tg.Name]
				re, err := Check(context.Background(), ends.Test, m, Options{})
				require.NoError(t, err)
				require.NotEqual(t, Unknown, re.Verdict, "%s for %s: %s", test.Name, tg.Name, re.Reason)
				rl, err := Check(context.Background(), loops.Test, m, Options{})
				require.NoError(t, err)
				retried++
				se, sl := states(re), states(rl)
				for _, s := range sl {
					require.True(t, slices.Contains(se, s), "%s for %s: the loops reach %s, the path ends do not\n%s", test.Name, tg.Name, s, loops.Text)
				}
				if rl.Verdict != Unknown && rl.Reason == "" {
					require.Equal(t, se, sl, "%s for %s", test.Name, tg.Name)
					equal++
				}
			}
		}
	}
	t.Logf("%d compiled tests with retries; %d with a complete unrolled search, all equal", retried, equal)
	require.Positive(t, retried)
}
