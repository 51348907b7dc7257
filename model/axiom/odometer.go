package axiom

// Odometer enumerates the paths of a walk that makes choices, as the
// thread semantics do (model/arch, model/lkmm): each run of the walk
// follows the current choices, making each with Choose, and Next moves to
// the next combination: the last choice point with an untried
// alternative moves on, and the later ones start again from 0.
type Odometer struct {
	choices []int // the choice made at each choice point so far
	counts  []int // the number of alternatives at each choice point
	pos     int
}

// Start begins a run of the walk.
func (o *Odometer) Start() {
	o.pos = 0
	o.counts = o.counts[:0]
}

// Choose returns the alternative taken at the next choice point among n
// (n > 0).
func (o *Odometer) Choose(n int) int {
	if o.pos == len(o.choices) {
		o.choices = append(o.choices, 0)
	}
	c := o.choices[o.pos]
	o.counts = append(o.counts, n)
	o.pos++
	return c
}

// Next moves to the next combination of choices after a run, and
// reports whether there is one.
func (o *Odometer) Next() bool {
	i := len(o.counts) - 1
	for i >= 0 && o.choices[i]+1 >= o.counts[i] {
		i--
	}
	if i < 0 {
		return false
	}
	o.choices = o.choices[:i+1]
	o.choices[i]++
	return true
}
