package interp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// TestShortcutsMatchPlain checks that the enumeration's shortcuts (the
// coherence pruning of rf, co and final writes, and the checks on partial
// co) change nothing: on the corpus C tests under linux-kernel.cat and on
// the corpus assembly tests under the built-in models, the plain
// enumeration gives the same states, verdict, counts and flags.
func TestShortcutsMatchPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m := corpusLKMM(t)
	for _, f := range corpusCTests(t) {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, src)
		require.NoError(t, err)
		p, err := lkmm.Program(test, 0)
		if err != nil {
			continue
		}
		comparePlain(t, m, p)
	}
	libs := map[litmus.Arch]string{litmus.ArchAArch64: "aarch64.cat", litmus.ArchRISCV: "riscv.cat", litmus.ArchPPC: "ppc.cat"}
	models := map[litmus.Arch]*Model{}
	for a, name := range libs {
		lm, err := LoadLib(name, Options{})
		require.NoError(t, err)
		models[a] = lm
	}
	n := 0
	filepath.Walk(filepath.Join(corpus, "arch"), func(path string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(path, ".litmus") || n >= 150 {
			return nil
		}
		src, _ := os.ReadFile(path)
		test, err := litmus.Parse(path, src)
		if err != nil {
			return nil
		}
		p, err := arch.Program(test, arch.Options{})
		if err != nil {
			return nil
		}
		n++
		comparePlain(t, models[test.Arch], p)
		return nil
	})
	require.Greater(t, n, 100)
}

func comparePlain(t *testing.T, m *Model, p *axiom.Program) {
	t.Helper()
	fast, err1 := m.Check(context.Background(), p, CheckOptions{})
	plain, err2 := m.Check(context.Background(), p, CheckOptions{plain: true})
	if err1 != nil || err2 != nil {
		require.Equal(t, err2 != nil, err1 != nil, p.Test.Name)
		return
	}
	require.Equal(t, plain.States, fast.States, "%s: states", p.Test.Name)
	require.Equal(t, plain.Verdict, fast.Verdict, "%s: verdict", p.Test.Name)
	require.Equal(t, plain.Positive, fast.Positive, "%s: positive", p.Test.Name)
	require.Equal(t, plain.Negative, fast.Negative, "%s: negative", p.Test.Name)
	require.Equal(t, plain.Flags, fast.Flags, "%s: flags", p.Test.Name)
}
