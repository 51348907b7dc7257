package interp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/internal/herdout"
	"github.com/litmus-dev/litmus/model/lkmm"
	"github.com/stretchr/testify/require"
)

// corpus is the shared conformance corpus, beside the repository.
var corpus = shared.Corpus()

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

// corpusCPrograms returns the programs of the first n corpus C tests
// (all when n < 0) that the LKMM front end gives a meaning to.
func corpusCPrograms(t testing.TB, n int) []*axiom.Program {
	files := corpusCTests(t)
	if n >= 0 && n < len(files) {
		files = files[:n]
	}
	var out []*axiom.Program
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, src)
		require.NoError(t, err)
		if p, err := lkmm.Program(test, 0); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// corpusAsmPrograms returns the programs of the first 150 corpus assembly
// tests that the built-in architecture models read.
func corpusAsmPrograms(t testing.TB) []*axiom.Program {
	return corpusAsmProgramsN(t, 150)
}

// corpusAsmProgramsN returns the programs of the first n corpus assembly
// tests that the built-in architecture models read, or all of them when n
// is negative.
func corpusAsmProgramsN(t testing.TB, n int) []*axiom.Program {
	var out []*axiom.Program
	filepath.Walk(filepath.Join(corpus, "arch"), func(path string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(path, ".litmus") || n >= 0 && len(out) >= n {
			return nil
		}
		src, _ := os.ReadFile(path)
		test, err := litmus.Parse(path, src)
		if err != nil {
			return nil
		}
		if p, err := arch.Program(test, arch.Options{}); err == nil {
			out = append(out, p)
		}
		return nil
	})
	require.Greater(t, len(out), 100)
	return out
}

// libModels loads the built-in architecture models, by dialect.
func libModels(t testing.TB, opt Options) map[litmus.Arch]*Model {
	out := map[litmus.Arch]*Model{}
	for a, name := range map[litmus.Arch]string{litmus.ArchAArch64: "aarch64.cat", litmus.ArchRISCV: "riscv.cat", litmus.ArchPPC: "ppc.cat"} {
		m, err := LoadLib(name, opt)
		require.NoError(t, err)
		out[a] = m
	}
	return out
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
	for _, s := range got.States.All() {
		a = append(a, s.String())
	}
	for _, s := range native.States.All() {
		b = append(b, s.String())
	}
	require.Equal(t, b, a, "%s: states", test.Name)
	require.Equal(t, native.Verdict.String(), got.Verdict.String(), "%s: verdict", test.Name)
	require.Equal(t, native.Positive, got.Positive, "%s: positive", test.Name)
	require.Equal(t, native.Negative, got.Negative, "%s: negative", test.Name)
	require.Equal(t, native.Flags, got.Flags, "%s: flags", test.Name)
	require.Equal(t, native.Ok, got.Ok, "%s: ok", test.Name)
}

// TestLinuxKernelCatMatchesHerd runs linux-kernel.cat through the
// interpreter on every corpus C test that herd7 7.58 answered and
// compares with herd's output: the same state lines, Observation and
// Positive and Negative counts.
func TestLinuxKernelCatMatchesHerd(t *testing.T) {
	m := corpusLKMM(t)
	compared := 0
	for _, f := range corpusCTests(t) {
		rel, err := filepath.Rel(corpus, f)
		require.NoError(t, err)
		h, err := herdout.Read(filepath.Join(corpus, "expected", "lkmm", rel+".out"))
		if err != nil {
			continue // herd gave no answer
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, src)
		require.NoError(t, err, rel)
		p, err := lkmm.Program(test, 0)
		require.NoError(t, err, rel)
		got, err := m.Check(context.Background(), p, CheckOptions{})
		require.NoError(t, err, rel)
		var states []string
		for _, s := range got.States.All() {
			states = append(states, s.String())
		}
		require.Equal(t, h.States, states, "%s: states", rel)
		require.Equal(t, h.Observation, got.Verdict.String(), "%s: observation", rel)
		require.Equal(t, h.Pos, got.Positive, "%s: positive", rel)
		require.Equal(t, h.Neg, got.Negative, "%s: negative", rel)
		compared++
	}
	require.Greater(t, compared, 100)
	t.Logf("%d tests agree with herd", compared)
}
