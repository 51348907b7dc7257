package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// TestShortcutsMatchPlain checks that the enumeration's shortcuts (the
// coherence pruning of rf, co and final writes, and the checks on partial
// co) change nothing: on the corpus C tests under linux-kernel.cat and on
// every corpus assembly test (AArch64, RISC-V, POWER) under the built-in
// models, and on the scale families of the benchmarks (the SB ring and
// IRIW, in C and in each dialect), the plain enumeration gives the same
// states, verdict, counts and flags.
func TestShortcutsMatchPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m := corpusLKMM(t)
	for _, p := range corpusCPrograms(t, -1) {
		comparePlain(t, m, p)
	}
	for _, src := range []string{shapes.SBRing(4), shapes.SBRing(7), shapes.IRIW(2), shapes.IRIW(3)} {
		test, err := litmus.Parse("shape.litmus", []byte(src))
		require.NoError(t, err)
		p, err := lkmm.Program(test, 0)
		require.NoError(t, err)
		comparePlain(t, m, p)
	}
	models := libModels(t, Options{})
	asm := corpusAsmProgramsN(t, -1)
	arches := map[litmus.Arch]int{}
	for _, p := range asm {
		arches[p.Test.Arch]++
	}
	for _, a := range []litmus.Arch{litmus.ArchAArch64, litmus.ArchRISCV, litmus.ArchPPC} {
		require.Greater(t, arches[a], 100, "corpus tests of %v", a)
	}
	for _, d := range []shapes.Dialect{shapes.AArch64, shapes.RISCV, shapes.PPC} {
		for _, src := range []string{d.SBRing(3), d.SBRing(6), d.IRIW(2), d.IRIW(3)} {
			test, err := litmus.Parse("shape.litmus", []byte(src))
			require.NoError(t, err)
			p, err := arch.Program(test, arch.Options{})
			require.NoError(t, err)
			asm = append(asm, p)
		}
	}
	for _, p := range asm {
		if models[p.Test.Arch] != nil {
			comparePlain(t, models[p.Test.Arch], p)
		}
	}
}

// TestMemoMatchesPlain is TestShortcutsMatchPlain with the memo of
// candidate-dependent values (memo.go) used from the first candidate of
// every structure, so that the corpus's small tests exercise it too; and
// it checks that the memo is used at all (some definitions and checks of
// ppc.cat and riscv.cat are found again on the SB ring).
func TestMemoMatchesPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	saved := memoAfter
	memoAfter = 1
	defer func() { memoAfter = saved }()
	m := corpusLKMM(t)
	for _, p := range corpusCPrograms(t, -1) {
		comparePlain(t, m, p)
	}
	models := libModels(t, Options{})
	for _, p := range corpusAsmProgramsN(t, -1) {
		if models[p.Test.Arch] != nil {
			comparePlain(t, models[p.Test.Arch], p)
		}
	}
	for _, d := range []shapes.Dialect{shapes.RISCV, shapes.PPC} {
		test, err := litmus.Parse("shape.litmus", []byte(d.SBRing(5)))
		require.NoError(t, err)
		p, err := arch.Program(test, arch.Options{})
		require.NoError(t, err)
		mm := models[p.Test.Arch]
		comparePlain(t, mm, p)
		res, err := mm.Check(context.Background(), p, CheckOptions{})
		require.NoError(t, err)
		require.Greater(t, res.memoHits, 0, "%s: the memo found nothing again", d.Name)
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
