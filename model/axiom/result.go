package axiom

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
