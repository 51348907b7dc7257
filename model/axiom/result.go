package axiom

import "github.com/litmus-dev/litmus/litmus"

// Verdict is herd's word for how often the final condition's proposition
// holds over the executions a model allows.
type Verdict int

// The verdicts.
const (
	Never     Verdict = iota // no allowed execution satisfies it
	Sometimes                // some do, some do not
	Always                   // every allowed execution satisfies it
	Unknown                  // a limit was hit; Result.Reason says which
)

func (v Verdict) String() string {
	return [...]string{"Never", "Sometimes", "Always", "Unknown"}[v]
}

// EachAtom calls f for every atom of a proposition.
func EachAtom(pr litmus.Prop, f func(*litmus.AtomProp)) {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		f(pr)
	case *litmus.NotProp:
		EachAtom(pr.X, f)
	case *litmus.BinProp:
		EachAtom(pr.X, f)
		EachAtom(pr.Y, f)
	case *litmus.ParenProp:
		EachAtom(pr.X, f)
	}
}
