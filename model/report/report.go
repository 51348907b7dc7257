// Package report is the vocabulary every engine of package model shares:
// what a check is asked (Options, its limits) and what it gives back
// (Result: the final states, the Verdict, the traces that explain it),
// with herd7's printing of them. It imports no engine, so that the
// operational core (model/op), the native LKMM and the cat models all
// return the same Result; package model re-exports these types.
package report

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
)

// Options bound and steer one Check.
type Options struct {
	// MaxStates bounds the number of distinct states explored; 0 means
	// DefaultMaxStates. Reaching it gives Verdict Unknown, never a guess.
	MaxStates int
	// Timeout bounds the wall time; 0 means no bound beyond ctx. Reaching
	// it (or ctx's deadline or cancellation) gives Verdict Unknown.
	Timeout time.Duration
	// MaxMemory caps, in bytes, the memory the check holds, as its engine
	// accounts it (visited sets, relation arenas, final states:
	// internal/limit); 0 means DefaultMaxMemory. Reaching it gives
	// Verdict Unknown. The cap is per check: the answer does not depend
	// on what else the process runs, before or beside it.
	MaxMemory uint64
	// WitnessFor, when non-nil, is a final-state proposition to explain
	// instead of the test's condition: Result.Witness is then a trace to a
	// final state where it holds (a shortest one when Trace.Shortest).
	WitnessFor litmus.Prop
	// LoopBound is herd7's -unroll for the axiomatic models (lkmm, the
	// architecture and cat models): how many times a path may take a
	// backward jump (run a loop's body again); a longer path is cut, and
	// a Never or Always that rests on the cut is Unknown. 0 means 2,
	// herd's default. The operational models need no bound: their
	// search visits each state once, loops included.
	LoopBound int
	// SkipChecks names the checks of a cat model ("acyclic ... as NAME")
	// whose outcome is ignored (herd7's -skipchecks), and SkipAll
	// ignores every check (herd7's -through all or invalid, for a model
	// read from a file): every candidate execution is then allowed. They
	// apply to the cat models only; a native engine refuses them.
	SkipChecks []string
	SkipAll    bool
	// StrictSkip is herd7's -strictskip: an execution is kept only when
	// every check named by SkipChecks fails on it ("retain outcomes
	// allowed by ALL skipped checks", herd's machModelChecker.ml: the set
	// of skipped checks that failed equals SkipChecks). Without
	// SkipChecks it changes nothing.
	StrictSkip bool
	// NoWitness skips building witness traces (slightly faster).
	NoWitness bool
	// Plain disables the partial-order reduction and forces the plain
	// interleaving search (used by the differential tests).
	Plain bool
	// Unroll turns the spin-loop reduction of the axiomatic models off:
	// every loop is unrolled under LoopBound, none is checked as an
	// await of its exit condition (litmus.Awaits; the differential
	// tests' plain search).
	Unroll bool
	// Explain asks a cat model for the reason of a verdict with no
	// allowed execution satisfying the condition even when its pruned
	// search dropped those executions before a check could name one: it
	// then searches again without pruning, under the same limits, for
	// Result.Why (litmus explain sets it).
	Explain bool
}

// DefaultMaxStates is the state limit when Options.MaxStates is 0.
const DefaultMaxStates = 5_000_000

// DefaultMaxMemory is the memory cap when Options.MaxMemory is 0: 1.5 GiB.
const DefaultMaxMemory = limit.DefaultMemory

// Verdict is herd's observation: whether the condition's proposition holds
// in no, some or all reachable final states, or Unknown when the search
// was cut short.
type Verdict int

// The verdicts.
const (
	Never Verdict = iota + 1
	Sometimes
	Always
	Unknown
)

// String returns herd's word for the verdict.
func (v Verdict) String() string {
	switch v {
	case Never:
		return "Never"
	case Sometimes:
		return "Sometimes"
	case Always:
		return "Always"
	case Unknown:
		return "Unknown"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Result is the outcome of one Check.
type Result struct {
	Name  string // the test's name
	Model string // the model's name, as model.Model's String gives it
	// Kind is herd's "Test NAME Kind" word: "Allowed" (exists),
	// "Forbidden" (~exists) or "Required" (forall).
	Kind string
	// Locs are the observed locations in herd's order: the columns of
	// every State.
	Locs []string
	// States are the reachable final states (after the filter), projected
	// on Locs, distinct and sorted as herd sorts them, packed (States).
	States States
	// Verdict is Never/Sometimes/Always over States for the condition's
	// proposition, or Unknown with Reason when the search was cut short
	// (then States holds only the final states found so far). A search
	// cut short after it found final states both satisfying and violating
	// the proposition gives Sometimes, which no other final state can
	// change: the verdict is exact, and Incomplete says why the search
	// stopped.
	Verdict Verdict
	Reason  string
	// Incomplete, when not empty, is why the search stopped early though
	// Verdict (Sometimes) is exact. States, Positive and Negative then
	// count only what was found, and Partial names what else was checked
	// only in the part explored: "invariants", "stuck threads", "flags".
	Incomplete string
	Partial    []string
	// Ok is herd's Ok/No: whether the condition (with its quantifier)
	// holds. It is false when Verdict is Unknown, and then means nothing:
	// WriteHerd prints no Ok/No line for an Unknown result.
	Ok bool
	// Positive and Negative count the states in which the proposition
	// holds and fails: herd's "Observation NAME Verdict P N" numbers,
	// counting states rather than executions.
	Positive, Negative int
	// Condition is the condition as herd prints it, for instance
	// "exists (0:r0=0 /\ 1:r0=0)"; empty when the test has none.
	Condition string
	// Witness is the shortest trace to a final state that explains the
	// verdict: one where the proposition holds for exists, for ~exists
	// (the state that makes the test fail) and for Options.WitnessFor;
	// one where it fails for forall. Nil when there is none or witnesses
	// were turned off.
	Witness *Trace
	// Violations lists the test's invariants that fail in some reachable
	// state, each with the shortest trace to its first violation.
	Violations []Violation
	// Stuck lists states from which some thread can never finish, with a
	// shortest trace to each (at most a few).
	Stuck []Stuck
	// Dropped lists executions that have no meaning because a thread
	// accesses memory at a value that is not the address of a shared
	// location (a NULL pointer, say): at most a few dead-end states, each
	// with a trace to it and a Reason naming the access. Such an
	// execution contributes no final state; the others are kept (as herd7
	// releases before October 2025 do for loads; later ones reject the
	// whole test, docs/semantics.md). Stats.Dropped counts them all.
	Dropped []Stuck
	// Faults lists, in a test with objects (a code test, or one that
	// declares objects for ptr_add), the accesses through NULL or a wild
	// pointer that some execution the model allows makes: a finding, as
	// a data race is, and the flag "bad-address" is among Flags. Each
	// Reason names the access and the pointer's value, and Fault gives
	// them in parts; an operational model gives the trace to it (those
	// are its Dropped dead ends).
	Faults []Stuck
	// FaultsChecked reports whether the model looked for such accesses:
	// every model does in a C test with objects (the architectures on
	// the compiled test, naming the C access); a test without objects,
	// a native assembly test among them, drops a faulting path as herd
	// does.
	FaultsChecked bool
	// Loops says, for the axiomatic models, how each loop of a C test
	// was checked: "P1 line 12: while loop checked as an await of its
	// exit condition", or unrolled and why (litmus.Awaits).
	Loops []string
	// InvariantsChecked reports whether the test's invariant clauses were
	// checked in every reachable state. It is false under LKMM, an
	// axiomatic model with no intermediate states.
	InvariantsChecked bool
	// Flags are herd's flags raised by some allowed execution, such as
	// "data-race" (LKMM only); herd prints a "Flag NAME" line for each.
	Flags []string
	// Why explains, in words, a verdict that has no interleaving to show
	// (LKMM): which axiom rejected the executions that would satisfy the
	// condition, and the cycle it found.
	Why string
	// Graph is, under an axiomatic model and with Options.Explain, the
	// witness execution: the first allowed one reaching what Witness
	// would reach. WhyGraph is the rejected execution Why explains, its
	// cycle marked. Matches counts the allowed executions reaching the
	// target (the condition's proposition, or Options.WitnessFor).
	Graph, WhyGraph *Graph
	Matches         int
	Stats           Stats
}

// Witnesses returns herd's "Witnesses Positive: P Negative: N" numbers:
// the states that satisfy and violate the condition with its quantifier.
func (r *Result) Witnesses() (pos, neg int) {
	if r.Kind == "Forbidden" {
		return r.Negative, r.Positive
	}
	return r.Positive, r.Negative
}

// State is one final state over the observed locations.
type State struct {
	Values []LocValue
}

// LocValue is one observed location and its value.
type LocValue struct {
	Loc string // "0:r0", "[x]", "x" (C), "t[1]"
	Val Value
}

// Value is an integer or the address of a shared location.
type Value struct {
	Int int64
	Sym string // the location's name when the value is an address
}

// Trace is a sequence of machine steps from the initial state.
type Trace struct {
	Steps []Step
	// Shortest reports whether the trace is known to be a shortest one
	// (found by breadth-first search over every interleaving). Traces
	// found by the reduced search are valid but may be longer.
	Shortest bool
}

// StepKind says what a trace step did.
type StepKind int

// Step kinds.
const (
	StepInstr StepKind = iota + 1 // a thread executed an instruction
	StepDrain                     // a buffered store reached memory
	StepBlock                     // (stuck traces) the thread is waiting here forever
)

// Source says where a load's value came from.
type Source int

// Load sources.
const (
	FromNone   Source = iota // not a load
	FromMemory               // shared memory
	FromBuffer               // the thread's own store buffer (forwarding)
)

// Step is one step of a trace.
type Step struct {
	Kind   StepKind
	Thread int
	Pos    litmus.Position // the instruction's source position (a drain: the store's)
	Text   string          // the instruction as written, e.g. "r0 = READ_ONCE(*y)"
	Loc    string          // the location read or written, if any
	Read   *Value          // the value read, if the step read memory
	From   Source          // where Read came from
	Wrote  *Value          // the value written (or buffered), if any
	Note   string          // extra words: "buffered", "cmpxchg failed", "waits for lock"
}

// Violation is an invariant that fails in some reachable state.
type Violation struct {
	Invariant string // the invariant as written, "invariant (x=0 \/ y=1)"
	Pos       litmus.Position
	State     string // the violating state's locations, herd style
	Trace     Trace
}

// Stuck is a state from which some thread can never finish.
type Stuck struct {
	Threads []int // the threads that can never finish
	// Reason says why, one clause per thread: "P0 waits forever at line
	// 6: spin_lock(b)" (blocked), "P1 can never finish (it is at line 9:
	// while (r0 == 0))" (spinning, or waiting on a thread that spins).
	Reason string
	// Trace leads to the state; for a blocked thread it ends with a
	// StepBlock step per waiting thread.
	Trace Trace
	// Fault, for an entry of Result.Faults, is the access in parts:
	// the thread, the place, the pointer and its value (nil elsewhere).
	Fault *Fault
}

// Fault is an access through NULL or a wild pointer that an execution
// the model allows makes, in a test with objects (Result.Faults).
type Fault struct {
	Thread int
	// Pos is the place of the pointer expression the access goes
	// through (its file:line:col); Access is that expression as the
	// flattened test writes it ("ptr_add(p, 4)").
	Pos    litmus.Position
	Access string
	// Stmt is, when Access is empty, the statement that makes the
	// access, and Pos is the statement's place (sc, tso and pso keep
	// no place of the pointer expression).
	Stmt string
	// Value is the pointer's value: "NULL", an integer ("4"), or an
	// address outside its object ("rg__slots_0__val-8"); Kind says
	// which: "null", "integer", "outside".
	Value string
	Kind  string
	// Witness reports whether the result shows an execution reaching
	// the fault: the trace to it (sc, tso, pso), or an allowed
	// execution the axiomatic search found with the fault.
	Witness bool
	// Graph is, under an axiomatic model and with Options.Explain, that
	// execution: the first allowed one whose thread ends at the fault.
	Graph *Graph
}

// String says where a fault is and what the pointer held, in one line:
// "FILE:L:C: P1 accesses memory through ptr_add(p, 4), which is 4, not
// an address (NULL plus an offset, or an integer)".
func (f Fault) String() string {
	what := f.Value
	switch f.Kind {
	case "null":
		what = "NULL"
	case "outside":
		what += ", outside its object or between its cells"
	default:
		what += ", not an address (NULL plus an offset, or an integer)"
	}
	switch {
	case f.Access != "":
		what = f.Access + ", which is " + what
	case f.Stmt != "":
		what = "a pointer in " + f.Stmt + ", which is " + what
	}
	pos := ""
	if f.Pos.IsValid() {
		pos = f.Pos.String() + ": "
	}
	return fmt.Sprintf("%sP%d accesses memory through %s", pos, f.Thread, what)
}

// FaultValue gives an access's pointer value v in a Fault's terms: its
// Value and Kind.
func FaultValue(v Value) (value, kind string) {
	switch {
	case v.Sym == "" && v.Int == 0:
		return "NULL", "null"
	case v.Sym != "":
		off := strconv.FormatInt(v.Int, 10)
		if v.Int >= 0 {
			off = "+" + off
		}
		return v.Sym + off, "outside"
	}
	return strconv.FormatInt(v.Int, 10), "integer"
}

// Stats describe the search.
type Stats struct {
	States        int64         // distinct states visited
	Transitions   int64         // steps taken
	BytesPerState float64       // bytes of search storage (visited set, parents, edges) per state
	Elapsed       time.Duration // wall time of the whole Check
	Engine        string        // "plain" or "reduced"
	// Unreduced says why an operational search (sc, tso, pso) ran plain,
	// every interleaving, where its partial-order reduction did not
	// apply: "the program loops", "invariants are checked in every
	// state". Empty when the search was reduced, when the caller asked
	// for the plain search (Options.Plain), and under the other engines.
	Unreduced string
	// Dropped counts the distinct dead-end states in which a thread is
	// about to access a non-address (Result.Dropped); the same under the
	// plain and the reduced search, which keep every dead end.
	Dropped int64
}

// Condition returns herd's words for t's condition, as Result.Kind and
// Result.Condition hold them: "Allowed", "Forbidden" or "Required", and
// the condition as herd prints it; a test without condition is herd's
// "Required", "forall (true)".
func Condition(t *litmus.Test) (kind, condition string) {
	return testKind(t), condString(t.Cond, t.Arch)
}

// PropError is an error in a proposition given by the caller rather than
// written in the test (Options.WitnessFor, explain's --state): it has no
// position in the test's file.
type PropError struct{ Msg string }

func (e *PropError) Error() string { return e.Msg }

// AsPropError drops the position of an error in a caller's proposition:
// the proposition is not in the test's file.
func AsPropError(err error) error {
	var e *litmus.Error
	if errors.As(err, &e) {
		return &PropError{Msg: e.Msg}
	}
	return &PropError{Msg: err.Error()}
}
