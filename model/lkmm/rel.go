package lkmm

import "github.com/litmus-dev/litmus/model/axiom"

// The LKMM computes its relations with the bitsets of package axiom, the
// axiomatic core it shares with the cat interpreter: sets and relations
// over the events of one execution, allocated from an arena that carries
// the search's budget.
type (
	Set       = axiom.Set
	Rel       = axiom.Rel
	arena     = axiom.Arena
	arenaMark = axiom.ArenaMark
)

func newSet(n int) Set           { return axiom.NewSet(n) }
func newRel(n int) Rel           { return axiom.NewRel(n) }
func relBytes(n int) uint64      { return axiom.RelBytes(n) }
func union(r Rel, ss ...Rel) Rel { return axiom.Union(r, ss...) }
func seqs(r Rel, rs ...Rel) Rel  { return axiom.Seqs(r, rs...) }
