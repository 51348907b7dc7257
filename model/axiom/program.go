package axiom

import (
	"fmt"

	"github.com/litmus-dev/litmus/internal/limit"

	"github.com/litmus-dev/litmus/litmus"
)

// Program is a litmus test made ready for an axiomatic model by a
// semantics: its shared locations with their initial values, its threads,
// and the vocabulary of tags its events may carry.
type Program struct {
	Test  *litmus.Test
	Names []string       // location names, sorted
	Index map[string]int // location name -> index
	Init  []Val          // initial value of each location
	// Threads are the test's threads, sorted by ID.
	Threads []Thread
	// Vocab names the tags: bit i of an event's Tags is the set Vocab[i].
	// A semantics lists every tag of its dialect, so that a model may
	// name a set no event of this test is in (it is empty).
	Vocab []string
	// InitAccess and InitSize give, for each location of a mixed-size
	// program, the initial access it belongs to (all the granules of one
	// symbol are one access) and that access's size in bytes; nil
	// otherwise.
	InitAccess, InitSize []int
	// Symbol, when not nil, maps a name of the final section to the
	// locations (granules, lowest address first) whose values make it
	// up, little-endian, each Granule bytes wide; ok is false for a name
	// that is an ordinary location.
	Symbol  func(name string) (locs []int, ok bool)
	Granule int
	// RFOK and FinalOK, when not nil, reject an rf (src[r] is the write
	// read r reads from) or a choice of final writes (fw[l], for the
	// locations observed) that the semantics does not allow: herd's
	// per-access choice of writes in a mixed-size test.
	RFOK    func(x *Execution, src []int) bool
	FinalOK func(x *Execution, fw []int, final []bool) bool
	// InstrPO makes po relate only events of different instructions, as
	// herd's po for assembly (the read and write of one atomic
	// instruction are not in po); C tests keep every pair (herd's wide po
	// for the LKMM).
	InstrPO bool
	// OneEventAMO makes a cat model see each AMO (the rmw pair of one
	// instruction) as one event, both read and write, as herd7 makes a
	// RISC-V AMO (see OneEventView).
	OneEventAMO bool
	// RegName, when not nil, gives the name under which a thread's path
	// keeps a register that a condition or locations clause writes
	// name ("0:W0" and "0:X0" are both X0 in AArch64).
	RegName func(name string) string
	// RegLess, when not nil, orders a thread's registers in final states
	// as herd prints them (X4 before X10); names otherwise sort as text.
	RegLess func(a, b string) bool
	// Cast, when not nil, converts a final value of a register (th >= 0,
	// the thread's index, name as kept) or a location (th < 0, name) to
	// its declared type before a condition compares it or a state prints
	// it, as herd does (an int register holding 1<<32 prints 0).
	Cast func(th int, name string, v Val) Val
	// Unsigned, when not nil, says which registers and locations hold a
	// 64-bit unsigned type: their values print unsigned (herd prints a
	// uint64_t holding -1 as 18446744073709551615) and still sort by
	// their signed value, as herd's states do.
	Unsigned func(th int, name string) bool

	// Budget, when not nil, bounds the time and memory of everything
	// run over the program: the walks of its threads (the semantics
	// polls it), Domains, Paths, Combine and the relations of its
	// executions (an Arena given it).
	Budget *limit.Budget

	iw []Event // the initial write of each location, built once
}

// Thread is one thread of a program, as its semantics runs it.
type Thread interface {
	// ID is the N of PN.
	ID() int
	// Walk returns the paths of the thread when each read of location l
	// takes one of the values dom[l]: every sequence of choices, with the
	// events each path makes. With partial set it returns instead, for
	// the value domains, every path including those that die (a read no
	// value of dom can feed, a fault) or are cut by the loop bound, each
	// with the events made up to where it stops. cut reports whether the
	// loop bound cut some path.
	Walk(dom [][]Val, partial bool) (paths []Trace, cut bool, err error)
}

// WriteWalker is a Thread that can give Domains the writes of its paths
// without building the paths: WalkWrites calls write with the location
// and value of every KindW event of every path Walk(dom, true) returns,
// and returns the most KindW events of one path. The walks of the
// fixed point are most of a small test's set-up; the paths themselves
// (their events, registers and flows) are only needed once the domains
// are known.
type WriteWalker interface {
	WalkWrites(dom [][]Val, write func(loc int, v Val)) (most int, err error)
}

// TagIndex returns the index of tag name in p.Vocab, or -1.
func (p *Program) TagIndex(name string) int {
	for i, v := range p.Vocab {
		if v == name {
			return i
		}
	}
	return -1
}

// Position decodes a position of p's test.
func (p *Program) Position(pos litmus.Pos) litmus.Position {
	if p.Test == nil || p.Test.File == nil {
		return litmus.Position{}
	}
	return p.Test.File.Position(pos)
}

// Errorf returns an error positioned at pos in p's test.
func (p *Program) Errorf(pos litmus.Pos, format string, args ...any) error {
	return &litmus.Error{Pos: p.Position(pos), Msg: fmt.Sprintf(format, args...)}
}

// initWrites returns the initial write of each location.
func (p *Program) initWrites() []Event {
	if p.iw == nil {
		p.iw = make([]Event, len(p.Names))
		for i := range p.iw {
			p.iw[i] = Event{Thread: -1, Kind: KindW, Loc: i, Val: p.Init[i], RMW: -1, Instr: -1, Text: "init"}
			if p.InitAccess != nil {
				p.iw[i].Access, p.iw[i].AccessSize = p.InitAccess[i], p.InitSize[i]
			}
		}
	}
	return p.iw
}

// LimitError marks an error that makes a verdict Unknown rather than the
// input wrong: a value domain or a path count past its bound.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }
