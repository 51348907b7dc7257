package arch_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/internal/herdout"
	"github.com/litmus-dev/litmus/model/lkmm"
	"github.com/stretchr/testify/require"
)

// These tests check the built-in x86tso.cat and sc.cat, run by the cat
// interpreter over the events of model/arch (X86) and model/lkmm (C),
// against the operational TSO and SC machines of package model, and
// against herd7 where the corpus has its answer: the same final states,
// the same verdict.

// corpus is the shared conformance corpus, beside the repository.
var corpus = shared.Corpus()

// corpusTests returns the .litmus files under dir in the corpus, sorted,
// and skips the test when the corpus is absent.
func corpusTests(t testing.TB, dir string) []string {
	t.Helper()
	root := shared.CorpusDir(t, dir)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".litmus") {
			files = append(files, p)
		}
		return err
	})
	require.NoError(t, err)
	sort.Strings(files)
	require.NotEmpty(t, files)
	return files
}

func parseFile(t testing.TB, path string) *litmus.Test {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	test, err := litmus.Parse(path, src)
	require.NoError(t, err, path)
	return test
}

func libModel(t testing.TB, name string) *interp.Model {
	t.Helper()
	m, err := interp.LoadLib(name, interp.Options{})
	require.NoError(t, err, name)
	return m
}

// answer is what the tests compare: the final states, one line each as
// herd prints them, the verdict and the flags.
type answer struct {
	states  []string
	verdict string
	flags   []string
}

func (a answer) String() string {
	s := a.verdict + " {" + strings.Join(a.states, " | ") + "}"
	if len(a.flags) > 0 {
		s += " flags " + strings.Join(a.flags, ",")
	}
	return s
}

func catAnswer(r *interp.Result) answer {
	a := answer{verdict: r.Verdict.String(), flags: r.Flags}
	for _, s := range r.States.All() {
		a.states = append(a.states, s.String())
	}
	if r.Verdict == axiom.Unknown {
		a.verdict += " (" + r.Reason + ")"
	}
	return a
}

func opAnswer(r *model.Result) answer {
	a := answer{verdict: r.Verdict.String(), flags: r.Flags}
	for _, s := range r.States.All() {
		a.states = append(a.states, s.String())
	}
	if r.Verdict == model.Unknown {
		a.verdict += " (" + r.Reason + ")"
	}
	return a
}

// tb is what both testing.T and rapid.T give the helpers below.
type tb interface {
	require.TestingT
	Helper()
}

// runCat runs a cat model on a program.
func runCat(t tb, m *interp.Model, p *axiom.Program) answer {
	t.Helper()
	r, err := m.Check(context.Background(), p, interp.CheckOptions{})
	require.NoError(t, err, p.Test.Name)
	return catAnswer(r)
}

// runOp runs an operational model on a test.
func runOp(t tb, test *litmus.Test, m model.Model) (answer, error) {
	t.Helper()
	// herd7's reading of the final section: the generated tests observe
	// every register (locations [0:EAX;...]) whether or not a thread
	// uses it, and two of herd's own X86_64 tests observe a register no
	// instruction touches (docs/testing.md).
	p, err := model.Resolve(test, model.ResolveOptions{FreshZero: true})
	if err != nil {
		return answer{}, err
	}
	r, err := p.Check(context.Background(), m, model.Options{NoWitness: true})
	if err != nil {
		return answer{}, err
	}
	return opAnswer(r), nil
}

// TestX86CorpusTSO runs every shared X86 and X86_64 test under
// lib/x86tso.cat and checks that it gives herd7's states and verdict
// (expected/x86tso, made with herd's current x86tso files) and exactly
// the operational TSO machine's.
func TestX86CorpusTSO(t *testing.T) {
	tso := libModel(t, "x86tso.cat")
	n := 0
	for _, f := range corpusTests(t, "x86") {
		rel, _ := filepath.Rel(corpus, f)
		test := parseFile(t, f)
		p, err := arch.Program(test, arch.Options{})
		require.NoError(t, err, rel)
		got := runCat(t, tso, p)
		op, err := runOp(t, test, model.TSO)
		require.NoError(t, err, rel)
		require.Equal(t, op.String(), got.String(), "%s: x86tso.cat against the operational TSO machine", rel)
		h, err := herdout.Read(filepath.Join(corpus, "expected/x86tso", rel+".out"))
		require.NoError(t, err, rel)
		herd := answer{states: h.States, verdict: h.Observation}
		require.Equal(t, herd.String(), got.String(), "%s: x86tso.cat against herd7", rel)
		n++
	}
	t.Logf("x86tso.cat agrees with herd7 and with the operational TSO machine on %d X86 tests", n)
}

// TestX86CorpusSC runs every shared X86 and X86_64 test under lib/sc.cat
// and checks that it gives exactly the operational SC machine's states
// and verdict.
func TestX86CorpusSC(t *testing.T) {
	sc := libModel(t, "sc.cat")
	n := 0
	for _, f := range corpusTests(t, "x86") {
		rel, _ := filepath.Rel(corpus, f)
		test := parseFile(t, f)
		p, err := arch.Program(test, arch.Options{})
		require.NoError(t, err, rel)
		got := runCat(t, sc, p)
		op, err := runOp(t, test, model.SC)
		require.NoError(t, err, rel)
		require.Equal(t, op.String(), got.String(), "%s: sc.cat against the operational SC machine", rel)
		n++
	}
	t.Logf("sc.cat agrees with the operational SC machine on %d X86 tests", n)
}

// TestCCorpusSC runs every corpus C test that the operational SC
// machine accepts under lib/sc.cat (over model/lkmm's events) and checks
// that both give the same states and verdict, and herd7's sc.cat answer
// where the corpus has one (expected/sc: the tests without locks or
// RCU).
func TestCCorpusSC(t *testing.T) {
	sc := libModel(t, "sc.cat")
	n, herd, refused := 0, 0, 0
	for _, f := range corpusTests(t, "lkmm") {
		rel, _ := filepath.Rel(corpus, f)
		test := parseFile(t, f)
		op, err := runOp(t, test, model.SC)
		if err != nil {
			refused++
			t.Logf("%s: the operational SC machine refuses it: %v", rel, err)
			continue
		}
		p, err := lkmm.Program(test, 0)
		require.NoError(t, err, rel)
		got := runCat(t, sc, p)
		require.Equal(t, op.String(), got.String(), "%s: sc.cat against the operational SC machine", rel)
		n++
		h, err := herdout.Read(filepath.Join(corpus, "expected/sc", rel+".out"))
		if err != nil {
			continue
		}
		require.Equal(t, answer{states: h.States, verdict: h.Observation}.String(), got.String(), "%s: sc.cat against herd7's sc.cat", rel)
		herd++
	}
	t.Logf("sc.cat agrees with the operational SC machine on %d C tests (%d also with herd7's sc.cat); the machine refuses %d", n, herd, refused)
}

// TestSCUnmodelled checks that sc.cat flags the tests it gives no full
// meaning: those with SRCU, an unlock with no lock, a read-side critical
// section that never ends, a lock in the final state.
func TestSCUnmodelled(t *testing.T) {
	sc := libModel(t, "sc.cat")
	for _, c := range []struct{ flag, src string }{
		{"srcu-not-modelled", `C srcu
{ }
P0(int *x, int *y, struct srcu_struct *s) {
  int r0;
  int r1;
  r0 = srcu_read_lock(s);
  r1 = READ_ONCE(*x);
  srcu_read_unlock(s, r0);
}
P1(int *x, struct srcu_struct *s) {
  WRITE_ONCE(*x, 1);
  synchronize_srcu(s);
}
exists (0:r1=0)
`},
		{"unmatched-unlock", `C unmatchedunlock
{ }
P0(spinlock_t *lk, int *x) {
  WRITE_ONCE(*x, 1);
  spin_unlock(lk);
}
exists (x=1)
`},
		{"unmatched-rcu", `C unmatchedrcu
{ }
P0(int *x) {
  rcu_read_lock();
  WRITE_ONCE(*x, 1);
}
P1(int *x) {
  synchronize_rcu();
}
exists (x=1)
`},
		{"lock-final", `C lockfinal
{ }
P0(spinlock_t *lk, int *x) {
  spin_lock(lk);
  WRITE_ONCE(*x, 1);
}
exists (x=1 /\ lk=0)
`},
	} {
		test, err := litmus.Parse(c.flag+".litmus", []byte(c.src))
		require.NoError(t, err)
		p, err := lkmm.Program(test, 0)
		require.NoError(t, err)
		r, err := sc.Check(context.Background(), p, interp.CheckOptions{})
		require.NoError(t, err)
		require.Contains(t, r.Flags, c.flag, c.src)
	}
	// A test with neither raises no flag.
	test, err := litmus.Parse("plain.litmus", []byte("C plain\n{ }\nP0(spinlock_t *lk, int *x) {\n  spin_lock(lk);\n  WRITE_ONCE(*x, 1);\n  spin_unlock(lk);\n}\nexists (x=1)\n"))
	require.NoError(t, err)
	p, err := lkmm.Program(test, 0)
	require.NoError(t, err)
	r, err := sc.Check(context.Background(), p, interp.CheckOptions{})
	require.NoError(t, err)
	require.Empty(t, r.Flags)
}

// TestX86CorpusHerdModels runs herd's own x86tso.cat and x86tso-mixed.cat
// (the corpus's copies, those that made expected/x86tso) over this
// package's X86 events, on every shared X86 test: they must give
// herd7's answers, which says that the events and tags are herd's. The
// files are read into a temporary directory without the corpus's
// stdlib.cat: that one is herd's current library, which names sets (Exp,
// NExp, PTE, EX, iico_data) that the interpreter binds for no x86 test,
// so the interpreter's own standard library stands in for it.
func TestX86CorpusHerdModels(t *testing.T) {
	files := corpusTests(t, "x86")
	dir := t.TempDir()
	for _, f := range []string{"x86tso.cat", "x86tso-mixed.cat", "x86fences.cat", "filters.cat", "cos.cat"} {
		src, err := os.ReadFile(filepath.Join(corpus, "x86/herd/libdir", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), src, 0o644))
	}
	for _, model := range []string{"x86tso.cat", "x86tso-mixed.cat"} {
		m, err := interp.Load(filepath.Join(dir, model), interp.Options{})
		require.NoError(t, err, model)
		for _, f := range files {
			rel, _ := filepath.Rel(corpus, f)
			p, err := arch.Program(parseFile(t, f), arch.Options{})
			require.NoError(t, err, rel)
			got := runCat(t, m, p)
			h, err := herdout.Read(filepath.Join(corpus, "expected/x86tso", rel+".out"))
			require.NoError(t, err, rel)
			require.Equal(t, answer{states: h.States, verdict: h.Observation}.String(), got.String(), "%s: herd's %s", rel, model)
		}
		t.Logf("herd's %s gives herd7's answer on %d X86 tests", model, len(files))
	}
}
