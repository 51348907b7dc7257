package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// spinTest is a C test whose reader spins until it sees the last write:
// every bound on the loop cuts paths.
const spinTest = `C spin
{}
P0(int *x)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*x, 2);
	WRITE_ONCE(*x, 3);
}
P1(int *x)
{
	int r0;
	int r1 = 0;
	r0 = READ_ONCE(*x);
	while (r0 != 3) {
		r0 = READ_ONCE(*x);
		r1 = r1 + 1;
	}
}
exists (1:r0=3)
`

// spinTest's loop counts its iterations in r1, so it is not an await of
// its exit condition (litmus.Awaits): it is unrolled, which is what -unroll
// bounds.

// TestHerdUnroll: herd7's -unroll N bounds the backward jumps of a path
// under the axiomatic models, the native LKMM and the kernel's cat
// model alike: more unrolling, more executions. The verdict says that it
// rests on a bound (Unknown, with herd's answer in the reason), as herd
// warns "loop unrolling limit reached".
func TestHerdUnroll(t *testing.T) {
	test := filepath.Join(t.TempDir(), "spin.litmus")
	require.NoError(t, os.WriteFile(test, []byte(spinTest), 0o644))
	positive := func(args ...string) int {
		out, _, code := run(t, append(append([]string{"check", "--json"}, args...), test)...)
		require.Equal(t, exitCheck, code, "a cut search is Unknown")
		var r struct {
			Observation, Reason string
			Positive            int
		}
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &r))
		require.Equal(t, "Unknown", r.Observation)
		require.Contains(t, r.Reason, "herd7 -unroll would print Always")
		return r.Positive
	}
	one, def, four := positive("--model", "lkmm", "-unroll", "1"), positive("--model", "lkmm"), positive("--model", "lkmm", "-unroll", "4")
	require.Equal(t, def, positive("--model", "lkmm", "-unroll", "2"), "herd's default is 2")
	require.Less(t, one, def)
	require.Less(t, def, four)
	if _, err := os.Stat(kernelDir); err == nil {
		cfg := filepath.Join(kernelDir, "linux-kernel.cfg")
		require.Equal(t, one, positive("-conf", cfg, "-unroll", "1"))
		require.Equal(t, four, positive("-conf", cfg, "-unroll", "4"))
	}
	_, errOut, code := run(t, "check", "-unroll", "0", test)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "use -unroll 1")
}

// TestHerdFlags: herd7's -conf, -through, -skipchecks and -variant with
// herd's meaning; -speedcheck true, -show and -graph refused with the
// equivalent to use.
func TestHerdFlags(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	cfg := filepath.Join(kernelDir, "linux-kernel.cfg")
	mp := filepath.Join(kernelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus")
	out, errOut, code := run(t, "check", "-conf", cfg, "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Model linux-kernel.cfg ")
	require.Contains(t, out, "Observation MP+pooncerelease+poacquireonce Never 0 3")
	// MP's outcome is rejected by happens-before alone: skipping that
	// check lets it through, skipping another does not.
	out, _, code = run(t, "check", "-conf", cfg, "-skipchecks", "happens-before", "--time=false", mp)
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "Observation MP+pooncerelease+poacquireonce Sometimes 1 3")
	out, errOut, code = run(t, "check", "-conf", cfg, "-skipchecks", "propagation", "-skipchecks", "rcu", "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Never 0 3")
	out, _, _ = run(t, "check", "-conf", cfg, "-through", "all", "--time=false", mp)
	require.Contains(t, out, "Sometimes 1 3")
	out, errOut, code = run(t, "check", "-conf", cfg, "-through", "none", "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Never 0 3")
	_, errOut, code = run(t, "check", "--model", "lkmm", "-through", "all", mp)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "--model-dir DIR for the LKMM's own checks")

	// -variant reaches a --cat model's "if" on variants.
	cat := filepath.Join(t.TempDir(), "v.cat")
	require.NoError(t, os.WriteFile(cat, []byte("\"variant probe\"\ninclude \"cos.cat\"\nif \"strict\" acyclic po | rf | co | fr as sc end\n"), 0o644))
	sb := "../../docs/examples/mp-dmb-addr.litmus"
	out, _, _ = run(t, "check", "--cat", cat, "--time=false", sb)
	require.Contains(t, out, "Sometimes")
	out, _, _ = run(t, "check", "--cat", cat, "-variant", "strict", "--time=false", sb)
	require.Contains(t, out, "Never")
	_, errOut, code = run(t, "check", "-variant", "strict", sb)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "read by a model from files")

	for _, c := range []struct{ args []string }{
		{[]string{"check", "-speedcheck", "true", mp}},
		{[]string{"check", "-speedcheck", "fast", mp}},
		{[]string{"explain", "-show", "prop", mp}},
		{[]string{"explain", "-graph", "columns", mp}},
		{[]string{"check", "-conf", "x.cat", mp}},
	} {
		_, errOut, code := run(t, c.args...)
		require.Equal(t, exitUsage, code, c.args)
		require.Regexp(t, `--max-states|explain --dot|--cat FILE`, errOut, c.args)
	}
	_, errOut, code = run(t, "check", "-speedcheck", "false", "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
}

// TestModelDirWithoutCfg: a kernel tree's directory without
// linux-kernel.cfg is read as the kernel's cfg says (the bell, the
// model, lkmmv2, the .def), not refused with a suggestion that then
// fails (#27).
func TestModelDirWithoutCfg(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	dir := t.TempDir()
	for _, f := range []string{"linux-kernel.bell", "linux-kernel.cat", "linux-kernel.def", "lock.cat"} {
		b, err := os.ReadFile(filepath.Join(kernelDir, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	mp := filepath.Join(kernelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus")
	out, errOut, code := run(t, "check", "--model-dir", dir, "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Observation MP+pooncerelease+poacquireonce Never 0 3")
	require.Contains(t, out, "Primitives sha256:")
}

// TestHerdStrictSkip: herd7's -strictskip keeps only the executions that
// fail every check of -skipchecks; the observations are herd7 7.58's on
// the same test and cfg (herd7 -conf linux-kernel.cfg ... MP+...).
func TestHerdStrictSkip(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	cfg := filepath.Join(kernelDir, "linux-kernel.cfg")
	mp := filepath.Join(kernelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-skipchecks", "happens-before"}, "Sometimes 1 3"},
		{[]string{"-skipchecks", "happens-before", "-strictskip", "true"}, "Always 1 0"},
		{[]string{"-skipchecks", "happens-before,propagation", "-strictskip", "true"}, "Never 0 0"},
		{[]string{"-skipchecks", "nosuch", "-strictskip", "true"}, "Never 0 0"},
		{[]string{"-strictskip", "true"}, "Never 0 3"},
		{[]string{"-skipchecks", "happens-before", "-strictskip", "false"}, "Sometimes 1 3"},
	} {
		out, _, _ := run(t, append(append([]string{"check", "-conf", cfg, "--time=false"}, c.args...), mp)...)
		require.Contains(t, out, "Observation MP+pooncerelease+poacquireonce "+c.want+"\n", c.args)
	}
	_, errOut, code := run(t, "check", "-strictskip", "maybe", mp)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "-strictskip takes true or false")
}

// TestHerdConfKeys: a herd .cfg is read whole: the keys of the checks
// (skipchecks, strictskip, unroll, through, timeout) have herd's meaning,
// the keys of herd's pictures none, and every other key is refused at
// its line, naming it (herd7 itself refuses an unknown key the same
// way: "Unknown key 'frobnicate' in configuration file").
func TestHerdConfKeys(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	dir := t.TempDir()
	for _, f := range []string{"linux-kernel.bell", "linux-kernel.cat", "linux-kernel.def", "lock.cat", "linux-kernel.cfg"} {
		b, err := os.ReadFile(filepath.Join(kernelDir, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	base, err := os.ReadFile(filepath.Join(kernelDir, "linux-kernel.cfg"))
	require.NoError(t, err)
	lines := strings.Count(string(base), "\n")
	cfg := func(extra string) string {
		p := filepath.Join(dir, "t.cfg")
		require.NoError(t, os.WriteFile(p, append(append([]byte{}, base...), extra...), 0o644))
		return p
	}
	mp := filepath.Join(kernelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus")
	out, errOut, code := run(t, "check", "-conf", cfg("# a comment\n\nskipchecks happens-before\nstrictskip = true\n"), "--time=false", mp)
	require.Equal(t, exitCheck, code, errOut)
	require.Contains(t, out, "Observation MP+pooncerelease+poacquireonce Always 1 0\n")
	out, _, _ = run(t, "check", "-conf", cfg("through all\n"), "--time=false", mp)
	require.Contains(t, out, "Sometimes 1 3")
	var ring strings.Builder
	ring.WriteString("C ring\n{}\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&ring, "P%d(int *x%d, int *x%d)\n{\n\tint r0;\n\tWRITE_ONCE(*x%d, 1);\n\tr0 = READ_ONCE(*x%d);\n}\n", i, i, (i+1)%24, i, (i+1)%24)
	}
	ring.WriteString("exists (0:r0=0)\n")
	out, _, _ = runStdin(t, ring.String(), "check", "--cat", cfg("timeout 0.5\n"), "-")
	require.Contains(t, out, "Unknown ring timed out after 500ms")

	spin := filepath.Join(dir, "spin.litmus")
	require.NoError(t, os.WriteFile(spin, []byte(spinTest), 0o644))
	positive := func(args ...string) string {
		out, _, _ := run(t, append(append([]string{"check", "--json"}, args...), spin)...)
		var r struct{ Positive int }
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &r))
		return strings.Repeat("+", r.Positive)
	}
	require.Equal(t, positive("-conf", filepath.Join(dir, "linux-kernel.cfg"), "-unroll", "1"), positive("-conf", cfg("unroll 1\n")))
	require.Equal(t, positive("-conf", filepath.Join(dir, "linux-kernel.cfg"), "-unroll", "4"), positive("-conf", cfg("unroll 1\n"), "-unroll", "4"), "the command line wins")

	for extra, want := range map[string]string{
		"frobnicate 1\n":      fmt.Sprintf("t.cfg:%d:1: unknown key \"frobnicate\" in configuration file", lines+1),
		"machsize 32\n":       fmt.Sprintf("t.cfg:%d:1: herd7's key \"machsize\" is not supported", lines+1),
		"\nspeedcheck true\n": fmt.Sprintf("t.cfg:%d:1: speedcheck true", lines+2),
		"unroll many\n":       "unroll takes a number of times",
		"=oops\n":             "expected \"key argument\"",
	} {
		_, errOut, code := run(t, "check", "-conf", cfg(extra), mp)
		require.Equal(t, exitUsage, code, extra)
		require.Contains(t, errOut, want, extra)
	}
}
