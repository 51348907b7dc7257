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
