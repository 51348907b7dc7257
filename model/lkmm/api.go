// Package lkmm is an axiomatic engine for the Linux-kernel memory model
// (LKMM): given a C litmus test it builds every candidate execution the
// way herd7 does (the events of each thread, then every rf and co), keeps
// those linux-kernel.cat accepts, and reports herd7's verdict, final
// states and counts. The model is coded directly over bitset relations;
// see docs/lkmm.md for the choice and the upstream version it follows.
package lkmm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// Verdict is herd's word for how often the final condition's proposition
// holds over the executions the model allows (axiom.Verdict).
type Verdict = axiom.Verdict

// The verdicts.
const (
	Never     = axiom.Never     // no allowed execution satisfies it
	Sometimes = axiom.Sometimes // some do, some do not
	Always    = axiom.Always    // every allowed execution satisfies it
	Unknown   = axiom.Unknown   // a limit was hit; Result.Reason says which
)

// Options bound the search.
type Options struct {
	// LoopBound is how many times a loop may run; a path that would run
	// it again is dropped, as herd's -unroll does. Zero means 2, herd's
	// default.
	LoopBound int
	// Unroll turns the spin-loop reduction off: every loop is unrolled,
	// none is checked as an await of its exit condition (the plain
	// search of the differential tests; litmus.Awaits).
	Unroll bool
	// MaxCandidates stops the search with Unknown after this many
	// candidate executions. Zero means no limit.
	MaxCandidates int
	// Timeout stops the search with Unknown after this long (beyond ctx's
	// own deadline); zero means none.
	Timeout time.Duration
	// MaxMemory stops the search with Unknown when it holds more than
	// this many bytes (its relation arena and final states, as
	// internal/limit accounts them); zero means limit.DefaultMemory (1.5
	// GiB). The cap is checked in every loop of the engine and before
	// each block of relation storage is allocated.
	MaxMemory uint64
	// Workers is the number of goroutines that search the combinations
	// of the threads' paths: 0 means GOMAXPROCS, 1 a sequential search.
	// The result is the same for every number (parallel.go).
	Workers int

	// WitnessFor, when non-nil, is the final-state proposition to
	// explain instead of the condition's: Result.Matches counts the
	// allowed executions reaching it, and Why, Witness and WhyGraph are
	// about it.
	WitnessFor litmus.Prop
	// Graphs asks for Result.Witness and Result.WhyGraph.
	Graphs bool

	// pruneFrom, for tests, replaces pruneWrites; negative turns the
	// pruning of rf and co choices off.
	pruneFrom int
	// minParallel, for tests, replaces minParallel (parallel.go).
	minParallel int
	// plainModel, for tests, has every candidate checked as the cat
	// files say, without the shortcut that differential tests compare
	// with it: the RCU part over the RCU events (rcu.go).
	plainModel bool
	// noSubtrees, for tests, turns off the certification of whole rf
	// subtrees (subtree.go) that differential tests compare with the
	// candidate-by-candidate search.
	noSubtrees bool
}

// Result is what the engine found for one test.
type Result struct {
	Name string
	// States are the final states of the allowed executions that pass
	// the filter, sorted as herd sorts them, packed.
	States report.States
	// Verdict is Never, Sometimes or Always for the condition's
	// proposition; Unknown when a limit was hit (Reason says which)
	// before allowed executions both satisfying and violating the
	// proposition were found. Once both are found the verdict is
	// Sometimes whatever the rest holds: a limit hit after that leaves
	// Verdict exact and says why in Incomplete.
	Verdict Verdict
	Reason  string
	// Incomplete, when not empty, is why the search stopped early though
	// Verdict (Sometimes) is exact: States, Positive, Negative and Flags
	// then cover only the executions examined.
	Incomplete string
	// Ok is herd's Ok/No line: the condition as quantified holds.
	Ok bool
	// Positive and Negative count the allowed executions (distinct rf
	// and co) that satisfy the proposition and those that do not.
	Positive, Negative int
	// Flags are the names of the flags raised by some allowed execution
	// ("data-race", "mixed-accesses", "unmatched-rcu-lock", ...), sorted;
	// herd prints one "Flag NAME" line for each.
	Flags []string
	// DataRace reports whether the data-race flag is among Flags.
	DataRace bool
	// Why explains, when the proposition never holds but some candidate
	// execution that the model rejects would satisfy it, which check
	// rejected such an execution and the cycle it found, in words.
	Why string
	// Rejected counts, per check, the candidate executions satisfying
	// the proposition that it rejected.
	Rejected map[string]int
	// Matches counts the allowed executions reaching the target: the
	// condition's proposition (then it equals Positive), or
	// Options.WitnessFor.
	Matches int
	// Witness is, with Options.Graphs, the first allowed execution (in
	// the enumeration's order, whatever the number of workers) reaching
	// the target (for a forall condition without WitnessFor, one where
	// the proposition fails); WhyGraph is the rejected execution Why
	// explains, its cycle marked.
	Witness, WhyGraph *report.Graph
	// Cut reports whether the loop bound dropped some path.
	Cut bool
	// Loops says how each loop of the test was checked: as an await of
	// its exit condition, or unrolled and why (litmus.LoopNote.Text).
	Loops []string
	// Candidates is the number of candidate executions examined.
	Candidates int
	// Faults are the accesses through NULL or a wild pointer that some
	// allowed execution makes, in a test with objects (fault.go), each
	// with its place; the flag "bad-address" is then among Flags.
	Faults []report.Fault
	// Stuck are the ways some allowed execution has threads spinning
	// forever in an await (spin.go), each naming the threads, where
	// they spin and what their last iteration read.
	Stuck []report.Stuck
}

// Check runs the LKMM on a parsed C litmus test.
func Check(ctx context.Context, t *litmus.Test, opt Options) (*Result, error) {
	if t == nil {
		return nil, fmt.Errorf("lkmm: nil test")
	}
	// The limits count from here: the program's set-up is part of the
	// (test, model) check that --timeout bounds.
	b := limit.New(ctx, opt.Timeout, opt.MaxMemory)
	p, err := newProgram(t)
	if err != nil {
		return nil, err
	}
	if opt.LoopBound <= 0 {
		opt.LoopBound = 2
	}
	p.setAwaits(opt.Unroll)
	r, err := p.check(b, opt)
	if r != nil {
		r.Loops = p.loopNotes()
	}
	if err != nil {
		return r, err
	}
	if p.sawFault {
		var fu *faultsUnknown
		if r.Faults, err = faults(b, t, opt); errors.As(err, &fu) {
			if r.Verdict != Unknown {
				r.Verdict, r.Reason, r.Ok = Unknown, FaultsUnknown(fu.reason), false
			}
			return r, nil
		} else if err != nil {
			return nil, err
		}
		if len(r.Faults) > 0 {
			r.Flags = append(r.Flags, "bad-address")
			sort.Strings(r.Flags)
		}
	}
	if p.sawSpin && r.Verdict != Unknown {
		stuck, incomplete, err := spins(b, t, opt, p)
		if err != nil {
			return nil, err
		}
		r.Stuck = stuck
		if incomplete != "" && len(stuck) == 0 {
			// No witness found before the limit: whether a thread
			// can spin forever is not known, and that is part of
			// the answer, as it is for sc, tso and pso.
			r.Verdict, r.Ok = Unknown, false
			r.Reason = "the search for threads that spin forever stopped early: " + incomplete
		}
	}
	return r, nil
}
