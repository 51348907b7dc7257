package model

import (
	"context"
	"errors"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// freshZero are the shared corpus's tests whose final section names a
// register or location that nothing else in the test has: herd7 reads it
// as a fresh 0 and its answers rest on that reading, which Resolve
// refuses by default. docs/testing.md lists them with the reason.
var freshZero = map[string]bool{
	// "Tests Nop": P0 is one NOP; forall 0:rax=0 observes a register
	// no instruction touches.
	"x86/herd/tests/instructions/X86_64/A000.litmus": true,
	// The same for endbr64, a NOP for herd (forall 0:RAX=0).
	"x86/herd/tests/instructions/X86_64/A003.litmus": true,
}

// TestCorpusFreshZero measures which tests of the shared corpus the
// final-section check rejects: exactly those of freshZero, and each of
// them is accepted with FreshZero.
func TestCorpusFreshZero(t *testing.T) {
	got := map[string]bool{}
	n := 0
	for _, dir := range []string{"lkmm", "x86", "arch"} {
		for _, path := range corpusFiles(t, dir) {
			test, err := litmus.ParseFile(path)
			if err != nil {
				continue // the corpus tests that do not parse are listed elsewhere
			}
			n++
			if _, err := Resolve(test, ResolveOptions{}); err != nil {
				got[rel(t, path)] = true
				_, err := Resolve(test, ResolveOptions{FreshZero: true})
				require.NoError(t, err, "%s is rejected for another reason", path)
			}
		}
	}
	t.Logf("%d corpus tests resolved, %d need FreshZero", n, len(got))
	require.Equal(t, freshZero, got)
}

// The cases of issue #26: each used to pass having checked nothing, and
// is an input error under every model, found once before any engine runs.
func TestResolveErrors(t *testing.T) {
	const code = `{}
P0(int *data, int *flag) { WRITE_ONCE(*data, 1); smp_wmb(); WRITE_ONCE(*flag, 1); }
P1(int *data, int *flag) { int r0 = READ_ONCE(*flag); smp_rmb(); int r1 = READ_ONCE(*data); }
`
	for _, tc := range []struct{ src, want string }{
		{"C t\n(* Result: Nevr *)\n" + code + "exists (1:r0=1 /\\ 1:r1=0)\n",
			"t.litmus:2:12: Result: unknown verdict Nevr (want Never, Sometimes, Always or DEADLOCK); did you mean Never?"},
		{"C t\n(* result: NEVER *)\n(* Result-TS0: Never *)\n" + code + "exists (1:r0=1 /\\ 1:r1=0)\n",
			"t.litmus:3:11: Result-TS0: unknown model TS0 (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv, ppc or an alias: 'litmus help models', or a model of the run); did you mean Result-TSO?"},
		{"C t\n(* Result: *)\n" + code + "exists (1:r0=1 /\\ 1:r1=0)\n",
			"t.litmus:2:12: Result: expected a verdict (Never, Sometimes, Always or DEADLOCK)"},
		{"C t\n" + code + "exists (flga=1 /\\ 1:r1=0)\n",
			"t.litmus:5:9: unknown location flga: no thread accesses it and the init section does not declare it (herd7 reads it as a fresh 0, as --fresh-zero does); did you mean flag?"},
		{"C t\n" + code + "exists (1:r0=1 /\\ 1:r2=0)\n",
			"t.litmus:5:19: unknown register 1:r2: P1 never uses it and the init section does not set it (herd7 reads it as a fresh 0, as --fresh-zero does); did you mean 1:r0?"},
		{"C t\n" + code + "locations [1:r7]\nexists (1:r0=1)\n",
			"t.litmus:5:12: unknown register 1:r7: P1 never uses it and the init section does not set it (herd7 reads it as a fresh 0, as --fresh-zero does); did you mean 1:r0?"},
		{"C t\n" + code + "filter (datta=1)\nexists (1:r0=1)\n",
			"t.litmus:5:9: unknown location datta: no thread accesses it and the init section does not declare it (herd7 reads it as a fresh 0, as --fresh-zero does); did you mean data?"},
		{"C t\n" + code + "exists (2:r0=1)\n", "t.litmus:5:9: no thread P2"},
		// The short-circuit rewrite has nowhere to put a for step's or a
		// continued do-while condition's statements: the error is at
		// that step or condition, not at the test.
		{"C t\n{}\nP0(int *x) {\n\tint r0 = 0;\n\tint i;\n\tfor (i = 0; i < 2; i = i + (r0 && READ_ONCE(*x)))\n\t\tr0 = 1;\n}\nexists (0:r0=1)\n",
			"t.litmus:6:21: an && || or ?: that skips a memory access in a for step, or in the condition of a do-while whose body has a continue, is not supported: write it as an if"},
		{"C t\n{}\nP0(int *x) {\n\tint r0 = 0;\n\tdo {\n\t\tr0 = r0 + 1;\n\t\tif (r0 == 1)\n\t\t\tcontinue;\n\t} while (r0 < 2 && READ_ONCE(*x));\n}\nexists (0:r0=1)\n",
			"t.litmus:9:11: an && || or ?: that skips a memory access in a for step, or in the condition of a do-while whose body has a continue, is not supported: write it as an if"},
	} {
		test, err := litmus.Parse("t.litmus", []byte(tc.src))
		require.NoError(t, err, tc.src)
		_, err = Resolve(test, ResolveOptions{})
		require.Error(t, err, tc.src)
		var list litmus.ErrorList
		require.True(t, errors.As(err, &list))
		require.Len(t, list, 1, "%v", err)
		require.Equal(t, tc.want, list[0].Error())
		for _, m := range append(Models(), ArchModels()...) {
			_, err := Check(context.Background(), test, m, Options{})
			require.EqualError(t, err, tc.want, m.String())
		}
	}
}

// With FreshZero a name only the final section uses reads as herd7 reads
// it, a fresh 0, under every model; a thread that does not exist is an
// error in either reading.
func TestResolveFreshZero(t *testing.T) {
	src := `C t
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
exists (x=1 /\ y=0 /\ 0:r9=0)
`
	test, err := litmus.Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	_, err = Resolve(test, ResolveOptions{})
	require.Error(t, err)
	p, err := Resolve(test, ResolveOptions{FreshZero: true})
	require.NoError(t, err)
	for _, m := range append(Models(), ArchModels()...) {
		if !m.Applies(test.Arch) {
			continue
		}
		r, err := p.Check(context.Background(), m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, Always, r.Verdict, m.String())
	}
	test, err = litmus.Parse("t.litmus", []byte("C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (1:r0=0)\n"))
	require.NoError(t, err)
	_, err = Resolve(test, ResolveOptions{FreshZero: true})
	require.EqualError(t, err, "t.litmus:4:9: no thread P1")
}

// A Result-<model> line may name a built-in model by any of its names, in
// any case, or a model of the run read from files.
func TestResolveExpectModels(t *testing.T) {
	for _, s := range modelSpellings {
		_, err := ParseModel(s)
		require.NoError(t, err, "modelSpellings has %s, which ParseModel refuses", s)
	}
	src := "C t\n(*\n * Result-ARM64-LLSC: Never\n * Result-power: Never\n * Result-armlite: Never\n * Result-arm64-lsc: Never\n * Result-armlite-nodep: Never\n *)\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n"
	test, err := litmus.Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	_, err = Resolve(test, ResolveOptions{})
	// armlite is close to no model: another run's (a cat file's) name.
	require.EqualError(t, err, "t.litmus:6:11: Result-arm64-lsc: unknown model arm64-lsc (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv, ppc or an alias: 'litmus help models', or a model of the run); did you mean Result-ARM64-LSE?")
	mine := []Model{{k: kCat, cat: &catModel{name: "armlite-nodeps"}}}
	require.True(t, ExpectModel("ARMLITE-NODEPS", mine))
	_, err = Resolve(test, ResolveOptions{Models: mine})
	var list litmus.ErrorList
	require.True(t, errors.As(err, &list))
	require.Len(t, list, 2)
	require.EqualError(t, list[1], "t.litmus:7:11: Result-armlite-nodep: unknown model armlite-nodep (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv, ppc or an alias: 'litmus help models', or a model of the run); did you mean Result-ARMLITE-NODEPS?")
}
