package interp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// This file checks the evaluation shortcuts of the interpreter that the
// enumeration's plain mode does not turn off: each against the plain way
// of computing the same thing.

// TestHoistingMatchesInPlace checks that computing the fixed parts of
// candidate-dependent lets and checks once per execution (hoister)
// changes nothing: linux-kernel.cat on the corpus C tests and the
// built-in architecture models on the corpus assembly tests give the same
// states, verdict, counts, flags and explanations with and without it.
func TestHoistingMatchesInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	cfg := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.cfg")
	if _, err := os.Stat(cfg); err != nil {
		t.Skip("no shared corpus")
	}
	hoisted, err := LoadConfig(cfg, Options{})
	require.NoError(t, err)
	inPlace, err := LoadConfig(cfg, Options{noHoist: true})
	require.NoError(t, err)
	require.Less(t, len(inPlace.prog), len(hoisted.prog), "linux-kernel.cat has fixed parts to lift")
	for _, p := range corpusCPrograms(t, -1) {
		compareModels(t, hoisted, inPlace, p)
	}
	hoistedLib, inPlaceLib := libModels(t, Options{}), libModels(t, Options{noHoist: true})
	for _, p := range corpusAsmPrograms(t) {
		compareModels(t, hoistedLib[p.Test.Arch], inPlaceLib[p.Test.Arch], p)
	}
}

func compareModels(t *testing.T, a, b *Model, p *axiom.Program) {
	t.Helper()
	ra, err1 := a.Check(context.Background(), p, CheckOptions{})
	rb, err2 := b.Check(context.Background(), p, CheckOptions{})
	if err1 != nil || err2 != nil {
		require.Equal(t, err2, err1, p.Test.Name)
		return
	}
	require.Equal(t, rb.States, ra.States, "%s: states", p.Test.Name)
	require.Equal(t, rb.Verdict, ra.Verdict, "%s: verdict", p.Test.Name)
	require.Equal(t, rb.Positive, ra.Positive, "%s: positive", p.Test.Name)
	require.Equal(t, rb.Negative, ra.Negative, "%s: negative", p.Test.Name)
	require.Equal(t, rb.Flags, ra.Flags, "%s: flags", p.Test.Name)
	require.Equal(t, rb.Why, ra.Why, "%s: why", p.Test.Name)
	require.Equal(t, rb.Rejected, ra.Rejected, "%s: rejected", p.Test.Name)
	require.Equal(t, rb.Candidates, ra.Candidates, "%s: candidates", p.Test.Name)
}

// mapModel compares the map primitive with herd's cat definition of map
// (the one stdlib.cat had) on sets of every kind: each flag is raised
// when the two differ, but control, which compares different sets.
const mapModel = `"map against its cat definition"
let map2 f =
  let rec do_map S = match S with
  || {} -> {}
  || e ++ rest -> f e ++ do_map rest
  end in
  do_map
let differ(a, b) = if a = b then 0 else _
let id x = x
flag ~empty differ(map id W, map2 id W) as map-events
flag ~empty differ(map id (po & loc), map2 id (po & loc)) as map-pairs
flag ~empty differ(map id 0, map2 id 0) as map-zero
flag ~empty differ(map (fun s -> s | IW) (partition(M)), map2 (fun s -> s | IW) (partition(M))) as map-sets
flag ~empty differ(map (fun s -> s & R) (partition(M)), map2 (fun s -> s & R) (partition(M))) as map-equal-members
flag ~empty differ(map (fun e -> {e}) R, map2 (fun e -> {e}) R) as map-singletons
flag ~empty differ(map (fun p -> p ++ 0) (po & loc), map2 (fun p -> p ++ 0) (po & loc)) as map-relations
flag ~empty differ(map (fun e -> e) M, map2 (fun e -> e) W) as control
`

// TestMapMatchesCatDefinition checks the map primitive against herd's cat
// definition of map.
func TestMapMatchesCatDefinition(t *testing.T) {
	bell := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.bell")
	if _, err := os.Stat(bell); err != nil {
		t.Skip("no shared corpus")
	}
	m, err := load("map.cat", []byte(mapModel), Options{Bell: bell, Variants: []string{"lkmmv2"}})
	require.NoError(t, err)
	controls := 0
	for _, p := range corpusCPrograms(t, 40) {
		f := p.Test.Name
		res, err := m.Check(context.Background(), p, CheckOptions{})
		require.NoError(t, err, f)
		require.Positive(t, res.Positive+res.Negative, f)
		for _, fl := range res.Flags {
			if fl == "control" {
				controls++
				continue
			}
			require.Contains(t, []string{"this-model-requires-variant-higher-than-lkmmv1"}, fl, "%s: map differs from its cat definition", f)
		}
	}
	require.Positive(t, controls, "the control flag is raised")
}

// TestForcedOrderMatchesLinearisations checks forcedOrder and hasOrder,
// which find a forced total order of a few events that extends a
// relation, or that none exists, without enumerating them, against
// axiom.Linearisations and axiom.HasLinearisation.
func TestForcedOrderMatchesLinearisations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		const n = 8
		ev := &evaluator{x: &axiom.Execution{N: n}, al: &axiom.Arena{}}
		var ws []int
		for e := 0; e < n; e++ {
			if rapid.Bool().Draw(t, "in") {
				ws = append(ws, e)
			}
		}
		before := axiom.NewRel(n)
		for _, a := range ws {
			for _, b := range ws {
				if a != b && rapid.IntRange(0, 3).Draw(t, "edge") == 0 {
					before.Add(a, b)
				}
			}
		}
		count := 0
		var first axiom.Rel
		axiom.Linearisations(ws, before, func(order []int) bool {
			if count == 0 {
				first = ev.orderRel(order)
			}
			count++
			return count < 2
		})
		// forcedOrder reads before as the union of two relations,
		// as linOrder gives it the model's order and the candidate's
		// coherence order: split it at random, or not.
		part, rest := axiom.Rel{}, before
		if rapid.Bool().Draw(t, "split") {
			part, rest = axiom.NewRel(n), axiom.NewRel(n)
			for _, p := range before.Pairs() {
				if rapid.Bool().Draw(t, "side") {
					part.Add(p[0], p[1])
				} else {
					rest.Add(p[0], p[1])
				}
			}
		}
		r, got := ev.forcedOrder(ws, rest, part)
		if got < 2 {
			require.Equal(t, count, got, "orders of %v over %v", ws, before.Pairs())
		}
		if got == 1 {
			require.Equal(t, first.Pairs(), r.Pairs())
		}
		if count == 1 && len(ws) > 0 {
			// A single order is forced at every step.
			require.Equal(t, 1, got, "orders of %v over %v", ws, before.Pairs())
		}
		require.Equal(t, axiom.HasLinearisation(ws, before), hasOrder(ws, before))
	})
}

// bindingsModel exercises the top-level bindings the slots resolve from
// the program text: a candidate-dependent let that reads W before a fixed
// let rebinds it, a tuple pattern with _, and a name bound again after a
// "with". Each flag is raised when a binding is read wrong, but control.
const bindingsModel = `"top-level bindings"
let W0 = W
let unread = (W \ range(rf^-1)) | (0 & rf)
let W = W | R
let (p, _, q) = (W, R, M)
let (r, s) = (rf, W0)
with c from {po, loc}
let c2 = c
let W = W0
flag ~empty unread & (R \ W0) as unread-saw-later-W
flag ~empty (p \ (W0 | R)) | ((W0 | R) \ p) as tuple-first
flag ~empty (q \ M) | (M \ q) as tuple-third
flag ~empty (r \ rf) | (rf \ r) as tuple-dynamic
flag ~empty (s \ W0) | (W0 \ s) as tuple-fixed
flag ~empty (c2 \ c) | (c \ c2) as after-with
flag ~empty (W \ W0) | (W0 \ W) as rebound
flag ~empty W0 as control
`

// TestTopLevelBindings checks that each top-level name reads the binding
// the program text gives it.
func TestTopLevelBindings(t *testing.T) {
	bell := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.bell")
	if _, err := os.Stat(bell); err != nil {
		t.Skip("no shared corpus")
	}
	m, err := load("bindings.cat", []byte(bindingsModel), Options{Bell: bell, Variants: []string{"lkmmv2"}})
	require.NoError(t, err)
	for _, p := range corpusCPrograms(t, 40) {
		f := p.Test.Name
		res, err := m.Check(context.Background(), p, CheckOptions{})
		require.NoError(t, err, f)
		require.Positive(t, res.Positive+res.Negative, f)
		require.Equal(t, []string{"control"}, res.Flags, f)
	}
}

// skipModels are models in which skipping the second operand of an
// intersection or a difference whose first operand is empty would be
// wrong if it gave an empty relation or set where herd gives 0 (a loose
// skip, see skipper): the 0 flows into a union with a set, an acyclicity
// check, a complement whose failure is explained, a let rec, or is kept
// by an exact skip.
var skipModels = map[string]string{
	"union-with-set": `let A = po \ po
let B = rf ; [Sync-rcu]
let X = A & B
let Y = X | W
flag ~empty Y as y`,
	"acyclic-set": `let A = W \ W
let B = domain(rf ; [Sync-rcu])
let X = A & B
acyclic X as x`,
	"explained-universe": `let A = po \ po
let B = rf ; [Sync-rcu]
let X = A & B
let U = ~X
acyclic U as u`,
	"let-rec": `let A = po \ po
let B = rf ; [Sync-rcu]
let X = A & B
let rec Z = X | (Z ; po)
flag ~empty Z as z`,
	"difference": `let A = po \ po
let B = rf ; [Sync-rcu]
let X = A \ ~B
let Y = X | W
flag ~empty Y as y`,
	"exact": `let A = po \ po
let X = A & (rf ; po)
let Y = (A \ rf) | W
acyclic X | rf as x
flag ~empty Y as y`,
}

// TestSkipsMatchPlain checks the skipping of second operands against the
// plain evaluation, which skips none, on models where a wrong skip shows.
func TestSkipsMatchPlain(t *testing.T) {
	bell := filepath.Join(corpus, "lkmm/tools/memory-model/linux-kernel.bell")
	if _, err := os.Stat(bell); err != nil {
		t.Skip("no shared corpus")
	}
	files := corpusCTests(t)
	for name, src := range skipModels {
		t.Run(name, func(t *testing.T) {
			m, err := load(name+".cat", []byte(`"`+name+`"`+"\n"+src+"\n"), Options{Bell: bell, Variants: []string{"lkmmv2"}})
			require.NoError(t, err)
			for _, f := range files {
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				test, err := litmus.Parse(f, b)
				require.NoError(t, err)
				p, err := lkmm.Program(test, 0)
				if err != nil {
					continue
				}
				fast, err1 := m.Check(context.Background(), p, CheckOptions{})
				plain, err2 := m.Check(context.Background(), p, CheckOptions{plain: true})
				if err1 != nil || err2 != nil {
					require.Equal(t, err2, err1, f)
					continue
				}
				require.Equal(t, plain.States, fast.States, f)
				require.Equal(t, plain.Positive, fast.Positive, f)
				require.Equal(t, plain.Negative, fast.Negative, f)
				require.Equal(t, plain.Flags, fast.Flags, f)
				require.Equal(t, plain.Why, fast.Why, f)
				require.Equal(t, plain.Rejected, fast.Rejected, f)
			}
		})
	}
}

// TestClassesLocMemo checks classes-loc, which keeps the result of an
// argument met twice in a row for the rest of the structure of
// execution, against the computation on each call, on sequences of
// arguments that repeat.
func TestClassesLocMemo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		const n = 12
		nLoc := rapid.IntRange(1, 4).Draw(t, "locs")
		x := &axiom.Execution{N: n, P: &axiom.Program{Names: make([]string, nLoc)}}
		for range n {
			x.Ev = append(x.Ev, &axiom.Event{Loc: rapid.IntRange(-1, nLoc-1).Draw(t, "loc")})
		}
		memo := &evaluator{x: x, al: &axiom.Arena{}}
		plain := &evaluator{x: x, al: &axiom.Arena{}}
		sets := rapid.SliceOfN(rapid.Uint64Range(0, 1<<n-1), 1, 3).Draw(t, "sets")
		for _, k := range rapid.SliceOfN(rapid.IntRange(0, len(sets)-1), 1, 12).Draw(t, "calls") {
			s := axiom.NewSet(n)
			s[0] = sets[k]
			mark := memo.mark()
			got, err := classesLoc(memo, memo.setv(s))
			require.NoError(t, err)
			want := plain.classesLoc(s)
			require.Zero(t, compareValues(want, got), "classes-loc(%v): %s, want %s", s, formatValue(got, x), formatValue(want, x))
			// What the call allocated is freed, as a candidate's
			// values are.
			memo.reset(mark)
		}
	})
}
