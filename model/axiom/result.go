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

// Binding is one location of a final state and its value, both as herd
// prints them: "0:r0" or "[x]", and "1", "-1" or a location name.
type Binding struct {
	Loc, Val string
}

// State is a final state over the observed locations, in herd's order
// (registers by thread then name, then shared locations by name).
type State []Binding

// String prints s as herd does: "0:r0=1; [x]=2;".
func (s State) String() string {
	out := ""
	for _, b := range s {
		out += b.Loc + "=" + b.Val + "; "
	}
	if out != "" {
		out = out[:len(out)-1]
	}
	return out
}
