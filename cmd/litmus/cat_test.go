package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const kernelDir = "../../../shared/corpus/lkmm/tools/memory-model"

// TestCatFlags runs the commands that take a model with the kernel's
// model read from files: --model-dir, --cat with herd's .cfg, --cat with
// a bare .cat (an error for C tests: no bell), -I for includes, and a cat
// model as one column of --model all.
func TestCatFlags(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	mp := filepath.Join(kernelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus")
	want := "Observation MP+pooncerelease+poacquireonce Never 0 3"

	out, errOut, code := run(t, "check", "--model-dir", kernelDir, "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, want)
	// The log says which model and which primitives answered.
	require.Regexp(t, regexp.MustCompile(`(?m)^Primitives sha256:[0-9a-f]{64} \S+/linux-kernel.def$`), out)
	require.Regexp(t, regexp.MustCompile(`(?m)^Model linux-kernel.cat sha256:[0-9a-f]{64} \S+/linux-kernel.bell \S+/linux-kernel.cat \S+/lock.cat$`), out)
	out, errOut, code = run(t, "check", "--model-dir", kernelDir, "--json", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, `"model_sha256":"[0-9a-f]{64}","primitives_sha256":"[0-9a-f]{64}"`, out)
	out, _, _ = run(t, "check", "--model", "lkmm", "--time=false", mp)
	require.NotContains(t, out, "sha256", "built-in models print no identity line")

	out, errOut, code = run(t, "check", "--cat", filepath.Join(kernelDir, "linux-kernel.cfg"), "--time=false", mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, want)

	_, errOut, code = run(t, "check", "--cat", filepath.Join(kernelDir, "linux-kernel.cat"), mp)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "no bell file")

	out, errOut, code = run(t, "check", "--model", "lkmm,sc", "--model-dir", kernelDir, mp)
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, regexp.MustCompile(`MP\+pooncerelease\+poacquireonce\s+Never \(ok\)\s+Never\s+Never`), out)
	require.Contains(t, out, "linux-kernel.cat")

	out, errOut, code = run(t, "explain", "--model-dir", kernelDir, mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "rejected by happens-before: cycle")

	out, errOut, code = run(t, "fences", "--model-dir", kernelDir, mp)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "minimal sufficient set: smp_store_release(flag, 1) (P0, line 16), smp_load_acquire(flag) (P1, line 24)")

	// A model in a directory of its own that includes a file from
	// another: found with -I, an error naming the file without it.
	dir, lib := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(lib, "mine.cat"), []byte("include \"cos.cat\"\nlet com = rf | co | fr\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sc2.cat"), []byte("\"SC again\"\ninclude \"mine.cat\"\nacyclic po | com as sc\n"), 0o644))
	sb := "../../docs/examples/mp-dmb-addr.litmus"
	_, errOut, code = run(t, "check", "--cat", filepath.Join(dir, "sc2.cat"), sb)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "mine.cat")
	out, errOut, code = run(t, "check", "--cat", filepath.Join(dir, "sc2.cat"), "-I", lib, "--time=false", sb)
	require.Equal(t, exitOK, code, errOut)
	require.True(t, strings.Contains(out, "Observation MP+dmb.ish+addr Never"), out)
}

// TestModelDirDef checks that --model-dir takes the C primitives from the
// tree's linux-kernel.def: a primitive the tree adds is accepted and
// means what the tree says, a row the tree changes changes the answer
// under every model that runs (the native LKMM too), and without the
// tree the new primitive is an unknown function.
func TestModelDirDef(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	tree := t.TempDir()
	for _, f := range []string{"linux-kernel.cat", "linux-kernel.bell", "linux-kernel.def", "linux-kernel.cfg", "lock.cat"} {
		b, err := os.ReadFile(filepath.Join(kernelDir, f))
		require.NoError(t, err)
		if f == "linux-kernel.def" {
			b = append(b, "\n// Added by this tree.\nmy_load_acquire(X) __load{ACQUIRE}(*X)\n"...)
		}
		require.NoError(t, os.WriteFile(filepath.Join(tree, f), b, 0o644))
	}
	test := filepath.Join(t.TempDir(), "mp.litmus")
	require.NoError(t, os.WriteFile(test, []byte(`C MP+rel+myacq
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	r0 = my_load_acquire(y);
	r1 = READ_ONCE(*x);
}
exists (1:r0=1 /\ 1:r1=0)
`), 0o644))
	_, errOut, code := run(t, "check", "--model", "lkmm", test)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "unknown function my_load_acquire")

	out, errOut, code := run(t, "check", "--model", "lkmm,sc", "--model-dir", tree, test)
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, regexp.MustCompile(`MP\+rel\+myacq\s+Never\s+Never\s+Never`), out)

	// The tree weakens my_load_acquire to a plain ONCE load: the message
	// is no longer passed, under its model and the native LKMM alike.
	def := filepath.Join(tree, "linux-kernel.def")
	b, err := os.ReadFile(def)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(def, []byte(strings.Replace(string(b), "my_load_acquire(X) __load{ACQUIRE}(*X)", "my_load_acquire(X) __load{ONCE}(*X)", 1)), 0o644))
	out, errOut, code = run(t, "check", "--model", "lkmm", "--model-dir", tree, test)
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, regexp.MustCompile(`MP\+rel\+myacq\s+Sometimes\s+Sometimes`), out)

	// A body litmus cannot represent is an error at its line.
	require.NoError(t, os.WriteFile(def, append(b, "bad_one(X) __load{FANCY}(X)\n"...), 0o644))
	_, errOut, code = run(t, "check", "--model-dir", tree, test)
	require.Equal(t, exitUsage, code)
	require.Regexp(t, `linux-kernel.def:\d+:\d+: __load\{FANCY\}`, errOut)
}

// TestModelDirCorpus checks every C test of the shared LKMM corpus under
// the kernel's model read from its directory, next to the native LKMM:
// the kernel's Result lines (verdicts, DATARACE, DEADLOCK) are the
// expectations of both, and all are met.
func TestModelDirCorpus(t *testing.T) {
	if _, err := os.Stat(kernelDir); err != nil {
		t.Skip("no shared corpus")
	}
	out, errOut, code := run(t, "check", "--model", "lkmm", "--model-dir", kernelDir, filepath.Join(kernelDir, "../.."))
	require.Equal(t, exitOK, code, errOut)
	// The kernel's tests with a Result line, under both; those without
	// one are not passes (issue #26).
	require.Regexp(t, `\n\d+ passed, 0 failed, \d+ unjudged \(no expectation\)\n$`, out)
}
