package lkmm

import (
	"sync"
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/limit"
)

// The arena of a search's relations is its largest set-up cost on a
// small test: its first chunk is 16,384 words (128 KiB, zeroed), about a
// third of what checking a corpus test allocates. A process that checks
// many tests (check DIR, the benchmarks) takes it from a pool instead.
//
// Only an arena of that one first chunk goes back to the pool, so a test
// starts with at most that chunk more than a fresh arena would have: a
// fresh one takes the same chunk at its first relation unless that
// relation is over more than 256 events (then it takes a larger one
// first), so the memory a search is accounted for (limit.Hold) is the
// same after any other test, or 128 KiB more, never more than that. Every
// word the search reads it has written first (Arena.words clears,
// Arena.dirty is only for results written whole), so what an earlier
// test left in the chunk changes nothing; TestArenaReuse checks that a
// test gives the same answer after others as alone.
var arenas sync.Pool

// arenasReused counts the arenas getArena took from the pool (for
// TestArenaReuse).
var arenasReused atomic.Int64

// arenaChunk is package axiom's first chunk size, in words.
const arenaChunk = 1 << 14

// getArena returns an empty arena accounted to b.
func getArena(b *limit.Budget) *arena {
	if a, ok := arenas.Get().(*arena); ok {
		arenasReused.Add(1)
		a.Reset(arenaMark{})
		a.Events = 0
		a.SetBudget(b)
		return a
	}
	return &arena{Budget: b}
}

// putArena gives a back when it holds exactly one first-size chunk; a
// grown arena is left to the garbage collector.
func putArena(a *arena) {
	a.SetBudget(nil)
	if a.Words() == arenaChunk {
		arenas.Put(a)
	}
}
