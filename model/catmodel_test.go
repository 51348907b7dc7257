package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

const kernelModelDir = "../../shared/corpus/lkmm/tools/memory-model"

func parseFile(t *testing.T, path string) *litmus.Test {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	test, err := litmus.Parse(path, b)
	require.NoError(t, err)
	return test
}

// TestCatModelsFromFiles checks the three ways of reading the kernel's
// model from files (--model-dir, --cat linux-kernel.cfg, and the bare
// .cat, which has no bell and so no meaning for C tests) against the
// native LKMM, and that the model's hash names its files' contents.
func TestCatModelsFromFiles(t *testing.T) {
	if _, err := os.Stat(kernelModelDir); err != nil {
		t.Skip("no shared corpus")
	}
	test := parseFile(t, filepath.Join(kernelModelDir, "litmus-tests", "MP+pooncerelease+poacquireonce.litmus"))
	native, err := Check(context.Background(), test, LKMM, Options{})
	require.NoError(t, err)

	dir, err := LoadKernel(kernelModelDir)
	require.NoError(t, err)
	cfg, err := LoadCat(filepath.Join(kernelModelDir, "linux-kernel.cfg"), CatOptions{})
	require.NoError(t, err)
	for _, m := range []Model{dir, cfg} {
		require.True(t, m.Applies(litmus.ArchC), m.String())
		r, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, native.Verdict, r.Verdict, m.String())
		require.Equal(t, native.States, r.States, m.String())
		require.Equal(t, native.Positive, r.Positive, m.String())
		require.Equal(t, native.Negative, r.Negative, m.String())
		files, hash := m.CatInfo()
		require.Len(t, hash, 64)
		require.Contains(t, files, filepath.Join(kernelModelDir, "linux-kernel.bell"))
	}
	_, h1 := dir.CatInfo()
	_, h2 := cfg.CatInfo()
	require.Equal(t, h1, h2, "the same files, the same hash")

	bare, err := LoadCat(filepath.Join(kernelModelDir, "linux-kernel.cat"), CatOptions{})
	require.NoError(t, err)
	// Without a bell a model reads a C test as herd7 -model does (plain
	// reads, writes and fences); the kernel's model then names sets the
	// test's events lack, and the error says what to use instead.
	require.True(t, bare.Applies(litmus.ArchC))
	_, err = Check(context.Background(), test, bare, Options{})
	require.ErrorContains(t, err, "no bell file")
}

// TestCatModelEdited checks that an edited copy of the kernel's model is
// read from its own directory: with the happens-before axiom gone, the
// load-buffering test with control dependencies becomes allowed, as
// herd7 says of the same edit (model/cat/interp/testdata/variants).
func TestCatModelEdited(t *testing.T) {
	if _, err := os.Stat(kernelModelDir); err != nil {
		t.Skip("no shared corpus")
	}
	dir := t.TempDir()
	for _, f := range []string{"linux-kernel.cat", "linux-kernel.bell", "linux-kernel.def", "linux-kernel.cfg", "lock.cat"} {
		b, err := os.ReadFile(filepath.Join(kernelModelDir, f))
		require.NoError(t, err)
		if f == "linux-kernel.cat" {
			s := string(b)
			require.Contains(t, s, "acyclic hb as happens-before")
			b = []byte(strings.Replace(s, "acyclic hb as happens-before", "(* removed *)", 1))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	edited, err := LoadKernel(dir)
	require.NoError(t, err)
	stock, err := LoadKernel(kernelModelDir)
	require.NoError(t, err)
	test := parseFile(t, filepath.Join(kernelModelDir, "../../herdtools7-catalogue-linux/tests/C-LB+o-cgt-o+o-cgt-o.litmus"))
	r, err := Check(context.Background(), test, stock, Options{})
	require.NoError(t, err)
	require.Equal(t, Never, r.Verdict)
	r, err = Check(context.Background(), test, edited, Options{})
	require.NoError(t, err)
	require.Equal(t, Sometimes, r.Verdict)
	_, h1 := stock.CatInfo()
	_, h2 := edited.CatInfo()
	require.NotEqual(t, h1, h2)
}

// TestModelFilesBounded: a model file is read as a test is, at most
// 8 MiB: --cat /dev/zero used to grow the process to 4.46 GB, and an
// include of a huge file the same.
func TestModelFilesBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := LoadCat("/dev/zero", CatOptions{})
		require.EqualError(t, err, "/dev/zero: more than 8 MiB; litmus reads model files up to 8 MiB")
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.cat")
	require.NoError(t, os.WriteFile(big, make([]byte, 8<<20+1), 0o644))
	main := filepath.Join(dir, "main.cat")
	require.NoError(t, os.WriteFile(main, []byte("\"m\"\ninclude \"big.cat\"\n"), 0o644))
	_, err := LoadCat(main, CatOptions{})
	require.ErrorContains(t, err, "big.cat: more than 8 MiB; litmus reads model files up to 8 MiB")
}
