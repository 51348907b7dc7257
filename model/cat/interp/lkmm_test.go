package interp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// corpus is the shared conformance corpus, beside the repository.
const corpus = "../../../../shared/corpus"

func corpusLKMM(t testing.TB) *Model {
	cfg := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.cfg")
	if _, err := os.Stat(cfg); err != nil {
		t.Skip("no shared corpus")
	}
	m, err := LoadConfig(cfg, Options{})
	require.NoError(t, err)
	return m
}

func corpusCTests(t testing.TB) []string {
	var files []string
	err := filepath.Walk(filepath.Join(corpus, "lkmm"), func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".litmus") {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	return files
}

// TestLinuxKernelCatMatchesNative runs the kernel's own linux-kernel.cat
// (with its bell and lock.cat, from the corpus) through the interpreter
// on every corpus C test and compares with the native LKMM engine:
// states, verdict, herd's counts and flags must be identical.
func TestLinuxKernelCatMatchesNative(t *testing.T) {
	m := corpusLKMM(t)
	files := corpusCTests(t)
	require.Greater(t, len(files), 100)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, src)
		require.NoError(t, err, f)
		compareWithNative(t, m, test)
	}
}

func compareWithNative(t *testing.T, m *Model, test *litmus.Test) {
	t.Helper()
	native, nerr := lkmm.Check(context.Background(), test, lkmm.Options{})
	p, err := lkmm.Program(test, 0)
	if nerr != nil {
		require.Error(t, err, test.Name)
		return
	}
	require.NoError(t, err, test.Name)
	got, err := m.Check(context.Background(), p, CheckOptions{})
	require.NoError(t, err, test.Name)
	var a, b []string
	for _, s := range got.States {
		a = append(a, s.String())
	}
	for _, s := range native.States {
		b = append(b, s.String())
	}
	require.Equal(t, b, a, "%s: states", test.Name)
	require.Equal(t, native.Verdict.String(), got.Verdict.String(), "%s: verdict", test.Name)
	require.Equal(t, native.Positive, got.Positive, "%s: positive", test.Name)
	require.Equal(t, native.Negative, got.Negative, "%s: negative", test.Name)
	require.Equal(t, native.Flags, got.Flags, "%s: flags", test.Name)
	require.Equal(t, native.Ok, got.Ok, "%s: ok", test.Name)
}
