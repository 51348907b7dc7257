package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/model/axiom"
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
	for _, p := range corpusCPrograms(t, -1) {
		comparePlain(t, m, p)
	}
	models := libModels(t, Options{})
	for _, p := range corpusAsmPrograms(t) {
		comparePlain(t, models[p.Test.Arch], p)
	}
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
