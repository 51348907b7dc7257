package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestModelHashIgnoresPath: model_sha256 is the hash of the files'
// contents; the same model read by another spelling of its path has the
// same hash (the names were hashed with the contents, #27).
func TestModelHashIgnoresPath(t *testing.T) {
	hash := func(cat string) string {
		out, errOut, code := run(t, "check", "--cat", cat, "-I", "../../docs/examples/models/include", "--time=false", "../../docs/examples/models/tests/LB+datas.litmus")
		require.Equal(t, exitOK, code, errOut)
		m := regexp.MustCompile(`(?m)^Model \S+ sha256:([0-9a-f]{64}) `).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		return m[1]
	}
	abs, err := filepath.Abs("../../docs/examples/models/armlite.cat")
	require.NoError(t, err)
	a, b := hash("../../docs/examples/models/armlite.cat"), hash(abs)
	require.Equal(t, a, b)
	require.Equal(t, a, hash("../../docs/examples/../examples/models/./armlite.cat"))
	// Another file is another hash.
	require.NotEqual(t, a, hash("../../docs/examples/models/armlite-nodeps.cat"))
}

// TestModelDirTableReplaces: a kernel tree's linux-kernel.def replaces
// the built-in table of C primitives, as the docs say: set_bit, which the
// kernel's file does not define, is an unknown function under
// --model-dir (it was accepted with its built-in meaning, #27).
func TestModelDirTableReplaces(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	test := filepath.Join(t.TempDir(), "setbit.litmus")
	require.NoError(t, os.WriteFile(test, []byte("C setbit\n{}\nP0(unsigned long *x)\n{\n\tset_bit(0, x);\n}\nexists (x=1)\n"), 0o644))
	_, errOut, code := run(t, "check", "--model", "lkmm", "--time=false", test)
	require.Equal(t, exitOK, code, errOut)
	_, errOut, code = run(t, "check", "--model-dir", kernelDir, test)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "setbit.litmus:5:2: unknown function set_bit: the macro file")
}

// TestCatColumnNames: a model read from files never shares its name with
// a built-in model: beside --model riscv, herd's riscv.cat is the column
// and the JSON records' "riscv.cat" (both were "riscv", #27).
func TestCatColumnNames(t *testing.T) {
	cat := filepath.Join(corpus, "arch/riscv/herd/libdir/riscv.cat")
	if _, err := os.Stat(cat); err != nil {
		t.Skip("no shared corpus")
	}
	test := filepath.Join(corpus, "arch/riscv/dat3m/litmus/RISCV")
	files, _ := filepath.Glob(filepath.Join(test, "*.litmus"))
	require.NotEmpty(t, files)
	out, errOut, code := run(t, "check", "--model", "riscv", "--cat", cat, files[0])
	require.NotEqual(t, exitUsage, code, errOut)
	require.Regexp(t, `(?m)^test\s+riscv\s+riscv\.cat\s*$`, out)
	out, errOut, code = run(t, "check", "--model", "riscv", "--cat", cat, "--json", files[0])
	require.NotEqual(t, exitUsage, code, errOut)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct{ Model string }
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		names = append(names, r.Model)
	}
	require.Equal(t, []string{"riscv", "riscv.cat"}, names)
}

// TestNotApplicableJSON: under several models, a C test an architecture
// model does not apply to (synchronize_srcu; synchronize_rcu compiles as
// the toy RCU) is "n/a" in the text and in
// JSON alike, with the reason, and the exit status does not count it
// (JSON said "observation":"Error" where the text said n/a, #27).
func TestNotApplicableJSON(t *testing.T) {
	test := filepath.Join(t.TempDir(), "rcu.litmus")
	require.NoError(t, os.WriteFile(test, []byte(`C rcu
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	synchronize_srcu(s);
	WRITE_ONCE(*y, 1);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int i;
	i = srcu_read_lock(s);
	r0 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
	srcu_read_unlock(s, i);
}
exists (1:r0=1 /\ 1:r1=0)
`), 0o644))
	out, errOut, code := run(t, "check", "--model", "lkmm,aarch64", test)
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, `rcu\s+Never\s+n/a`, out)
	out, errOut, code = run(t, "check", "--model", "lkmm,aarch64", "--json", test)
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	var r struct {
		Model, Observation, Reason string
		Error                      *string
	}
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &r))
	require.Equal(t, "aarch64", r.Model)
	require.Equal(t, "n/a", r.Observation)
	require.Contains(t, r.Reason, "srcu")
	require.Nil(t, r.Error)
	// Under that model alone it is an error, in both.
	_, _, code = run(t, "check", "--model", "aarch64", "--json", test)
	require.Equal(t, exitUsage, code)
}

// TestHelpJSONModels: 'litmus help json' names every built-in model and
// the names of models read from files (it listed four models, #27).
func TestHelpJSONModels(t *testing.T) {
	out, _, _ := run(t, "help", "json")
	for _, m := range []string{"sc", "tso", "pso", "lkmm", "aarch64", "aarch64-llsc", "riscv", "ppc", "riscv.cat"} {
		require.Contains(t, out, `"`+m+`"`)
	}
}

// TestDiffUnknown: a search that ends Unknown is not compared ("Unknown
// -> Unknown (unchanged)" before), and the exit status 1 comes with the
// reason on stderr (nothing was printed there, #27).
func TestDiffUnknown(t *testing.T) {
	out, errOut, code := run(t, "diff", "--model", "sc", "--max-states", "2", "../../testdata/nospace.litmus", "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "sc: Unknown -> Unknown (not compared)")
	require.NotContains(t, out, "unchanged")
	require.Contains(t, errOut, "../../testdata/nospace.litmus: sc: Unknown: state limit of 2 states reached")
}
