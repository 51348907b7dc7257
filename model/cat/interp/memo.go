package interp

import (
	"slices"

	"github.com/litmus-dev/litmus/model/cat"
)

// This file keeps, from one candidate of a structure of execution to the
// next, the values of the candidate-dependent top-level definitions and
// checks whose inputs did not change. In the SB rings under ppc.cat, rf
// differs in every candidate but rfi, detour and rdw are empty in all of
// them, so the fixed point of ci, ii, cc and ic and ppo come out the same
// every time; under riscv.cat ppo depends on rf only through rsw and rfi,
// which are also the same. Only what the value does depend on is then
// computed again (hb, the checks).
//
// A memoized evaluation records the candidate-dependent top-level
// bindings it reads (thunk.gid: rf, FW, the "with" variables and the
// per-candidate lets), in the order of their first read, with their
// values. Evaluation is deterministic: given the values it has read so
// far, the next binding it reads is determined, so an evaluation whose
// reads, taken in that order, find the same values computes the same
// value. A lookup therefore forces the recorded bindings one after the
// other, comparing each with the value recorded, and stops at the first
// that differs: every binding it forces is one the evaluation itself
// would force at that point, so laziness (a definition never needed is
// never computed, and its failure never raised) is kept. A binding whose
// forcing fails ends the lookup; the evaluation then runs and meets the
// failure where it would have.
//
// Not recorded, and so never memoized: an evaluation that reads a binding
// whose value is not a relation or a set (a function, a tuple: their
// meaning may hide other bindings), that fails, that numbers
// linearisations or products (their identity orders them), or that reads
// the candidate's coherence constraints (mustOf). What stays fixed within
// a structure (the base names, the fixed lets, the skip masks) is the
// prepass's assumption too; the tables are emptied when the structure
// changes. A table that rarely hits turns itself off for the search.

// memoEntries is how many input combinations a table keeps.
const memoEntries = 4

// memoTable holds the recorded evaluations of one definition or check.
type memoTable struct {
	entries    [memoEntries]memoEntry
	n, next    int
	tries, hit int
	off        bool
}

// memoEntry is one recorded evaluation: the bindings read (gids), their
// values (kinds and words, words[off[k]:off[k+1]]), and the result.
type memoEntry struct {
	gids  []int32
	kinds []uint8
	off   []int
	words []uint64
	// The result: the values of the names bound (kinds and words, as
	// above), or a check's outcome.
	res   []uint8
	roff  []int
	rword []uint64
	ok    bool
}

// The kinds of value a memo keeps.
const (
	mkNone uint8 = iota // not kept: the evaluation is not recorded
	mkEmpty
	mkRel
	mkSet
	mkUniverse
	mkAbsent // a name bound to nothing (_)
)

// memoKind returns the kind of v and its words.
func memoKind(v Value) (uint8, []uint64) {
	switch v := v.(type) {
	case emptyV:
		return mkEmpty, nil
	case *relV:
		return mkRel, v.r.Words()
	case *setV:
		return mkSet, v.s
	case universeV:
		return mkUniverse, nil
	}
	return mkNone, nil
}

// recorder collects the bindings an evaluation reads.
type recorder struct {
	gids   []int32
	impure int // ev.impure when the evaluation started
}

func (rc *recorder) note(gid int32) {
	if !slices.Contains(rc.gids, gid) {
		rc.gids = append(rc.gids, gid)
	}
}

// memos are a runner's tables: by slot for the lazy top-level lets, by
// instruction for the checks and the other lets.
type memos struct {
	slot, instr []memoTable
	free        []*recorder
	one         [1]Value
	// Scratch room of memoLet (its caller reads the thunks at once).
	ths  []*thunk
	vals []Value
}

func (ms *memos) init(m *Model) {
	if len(ms.slot) != m.nSlots || len(ms.instr) != len(m.prog) {
		ms.slot = make([]memoTable, m.nSlots)
		ms.instr = make([]memoTable, len(m.prog))
		return
	}
	for _, ts := range [][]memoTable{ms.slot, ms.instr} {
		for i := range ts {
			t := &ts[i]
			t.n, t.next, t.tries, t.hit, t.off = 0, 0, 0, 0, false
		}
	}
}

// newStructure empties the tables, keeping which are off.
func (ms *memos) newStructure() {
	for _, ts := range [][]memoTable{ms.slot, ms.instr} {
		for i := range ts {
			ts[i].n, ts[i].next = 0, 0
		}
	}
}

// memoAfter is the number of candidates of a structure evaluated without
// the memo: a structure with few candidates (most of a corpus of small
// tests) would pay for the recording and gain nothing. (A variable for
// the differential tests, which set it to 1.)
var memoAfter = 8

// hits counts the values found again in the search.
func (ms *memos) hits() int {
	n := 0
	for _, ts := range [][]memoTable{ms.slot, ms.instr} {
		for i := range ts {
			n += ts[i].hit
		}
	}
	return n
}

// thunkOf returns the binding gid names.
func (g *globals) thunkOf(gid int32) *thunk {
	if gid > 0 {
		return g.slots[gid-1]
	}
	return g.base[-gid-1]
}

// startRecord begins recording for table t, or returns nil when t is off.
func (ev *evaluator) startRecord(t *memoTable) *recorder {
	if t.off || ev.memo == nil {
		return nil
	}
	ms := ev.memo
	var rc *recorder
	if n := len(ms.free); n > 0 {
		rc, ms.free = ms.free[n-1], ms.free[:n-1]
		rc.gids = rc.gids[:0]
	} else {
		rc = &recorder{}
	}
	rc.impure = ev.impure
	return rc
}

func (ev *evaluator) endRecord(rc *recorder) {
	if rc != nil {
		ev.memo.free = append(ev.memo.free, rc)
	}
}

// lookup returns the entry of t whose recorded reads find the same values
// now, or nil. It forces the recorded bindings (see the top of the file).
func (ev *evaluator) lookup1(t *memoTable) (e *memoEntry) {
	if t.off || ev.memo == nil {
		return nil
	}
	t.tries++
	defer func() {
		if e != nil {
			t.hit++
		} else if t.tries >= 16 && t.hit*8 < t.tries {
			t.off = true
		}
	}()
	saved := ev.rec
	ev.rec = nil
	defer func() { ev.rec = saved }()
	for k := 0; k < t.n; k++ {
		e := &t.entries[(t.next-1-k+2*memoEntries)%memoEntries]
		match := true
		for j, gid := range e.gids {
			th := ev.g.thunkOf(gid)
			if th == nil {
				match = false
				break
			}
			v, ok := ev.tryForce(th)
			if !ok {
				return nil
			}
			kind, words := memoKind(v)
			if kind != e.kinds[j] || !slices.Equal(words, e.words[e.off[j]:e.off[j+1]]) {
				match = false
				break
			}
		}
		if match {
			return e
		}
	}
	return nil
}

// tryForce forces th, reporting false when its evaluation fails (the
// failure stays in the thunk).
func (ev *evaluator) tryForce(th *thunk) (v Value, ok bool) {
	defer func() {
		if x := recover(); x != nil {
			if _, isEval := x.(*evalError); !isEval {
				panic(x)
			}
			v, ok = nil, false
		}
	}()
	return ev.force(th, 0, ""), true
}

// store records, in t, the evaluation rc followed, with its result: the
// values vals (nil for a name bound to _) or a check's outcome. It keeps
// nothing when the evaluation is not one a memo may keep.
func (ev *evaluator) store(t *memoTable, rc *recorder, vals []Value, ok bool) {
	if rc == nil || ev.impure != rc.impure {
		return
	}
	e := &t.entries[t.next]
	e.gids = e.gids[:0]
	e.kinds, e.off, e.words = e.kinds[:0], append(e.off[:0], 0), e.words[:0]
	e.res, e.roff, e.rword = e.res[:0], append(e.roff[:0], 0), e.rword[:0]
	for _, gid := range rc.gids {
		th := ev.g.thunkOf(gid)
		if th == nil || th.state != 2 || th.err != nil {
			return
		}
		kind, words := memoKind(th.v)
		if kind == mkNone {
			return
		}
		e.gids = append(e.gids, gid)
		e.kinds = append(e.kinds, kind)
		e.words = append(e.words, words...)
		e.off = append(e.off, len(e.words))
	}
	for _, v := range vals {
		kind, words := mkAbsent, []uint64(nil)
		if v != nil {
			kind, words = memoKind(v)
			if kind == mkNone {
				e.gids = e.gids[:0]
				return
			}
		}
		e.res = append(e.res, kind)
		e.rword = append(e.rword, words...)
		e.roff = append(e.roff, len(e.rword))
	}
	e.ok = ok
	t.next = (t.next + 1) % memoEntries
	t.n = min(t.n+1, memoEntries)
}

// result returns the k-th value of e, in the candidate's arena.
func (ev *evaluator) result(e *memoEntry, k int) Value {
	words := e.rword[e.roff[k]:e.roff[k+1]]
	switch e.res[k] {
	case mkEmpty:
		return theEmpty
	case mkUniverse:
		return theUniverse
	case mkRel:
		r := ev.emptyRel()
		copy(r.Words(), words)
		return ev.relv(r)
	case mkSet:
		s := ev.al.Set(ev.x.N)
		copy(s, words)
		return ev.setv(s)
	}
	return nil
}

// memoTest is runner.test for top-level check i, memoized.
func (r *runner) memoTest(i int, t *cat.AppTest, sc *scope) bool {
	ev := r.ev
	tab := &ev.memo.instr[i]
	if e := ev.lookup1(tab); e != nil {
		return e.ok
	}
	rc := ev.startRecord(tab)
	saved := ev.rec
	ev.rec = rc
	defer func() { ev.rec = saved; ev.endRecord(rc) }()
	ok := r.test(t, sc)
	ev.store(tab, rc, nil, ok)
	return ok
}

// memoLet is runner.let for top-level let i (no when), memoized.
func (r *runner) memoLet(i int, s *cat.Let, e env) []*thunk {
	ev := r.ev
	tab := &ev.memo.instr[i]
	if en := ev.lookup1(tab); en != nil {
		out := ev.memo.ths[:0]
		for k := range en.res {
			out = append(out, nil)
			if en.res[k] != mkAbsent {
				out[k] = ev.valueThunk(ev.result(en, k))
			}
		}
		ev.memo.ths = out
		return out
	}
	rc := ev.startRecord(tab)
	saved := ev.rec
	ev.rec = rc
	defer func() { ev.rec = saved; ev.endRecord(rc) }()
	ths, _ := r.let(s, e) // no when: always true
	if rc != nil {
		vals := ev.memo.vals[:0]
		for _, th := range ths {
			if th == nil {
				vals = append(vals, nil)
				continue
			}
			if th.state != 2 || th.err != nil {
				return ths
			}
			vals = append(vals, th.v)
		}
		ev.memo.vals = vals
		ev.store(tab, rc, vals, true)
	}
	return ths
}
