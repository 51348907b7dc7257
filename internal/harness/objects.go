package harness

// A C test's objects (litmus.Object: a code test's structs, or a plain
// test's object declarations) are what ptr_add moves within: ptr_add(p,
// n) is the cell n bytes past p in p's object, compiled by model/cir to
// an add on p's register. run gives every C location a word of its own
// (8 bytes, as its accesses are), so an object's cells, at their LP64
// byte offsets (an int's 4 bytes apart), cannot sit at those offsets:
// each object is one variable of words, its cells at Scale times their
// offsets, Scale = 8 / gcd(8, every cell's offset) (2 for a struct of
// ints, 1 for longs and pointers), and cir scales ptr_add's offset by the
// same factor (cir.OffsetScaler), with a shift when it is computed at run
// time. The cells of one instance of an object lie together, in the
// order of their offsets, in both layouts.
//
// An address that leaves its object would reach other memory, and NULL
// plus an offset faults: the harness does not look for such accesses.
// litmus run refuses a test where a model finds one, or where no model
// could rule one out (cmd/litmus/run.go).

// cellRef places a cell of an object: its object's variable and its
// element there.
type cellRef struct {
	v *variable
	i int
}

// declareObjects declares the variables of a C test's objects.
func (p *program) declareObjects(cTest bool) error {
	t := p.test
	p.cells, p.scale = map[string]cellRef{}, 1
	if !cTest || len(t.Objects) == 0 {
		return nil
	}
	g := 8
	for _, o := range t.Objects {
		for _, c := range o.Cells {
			if c.Off < 0 {
				return p.unsupported(o.Pos(), "object %s: a cell at the negative offset %d", o.Name, c.Off)
			}
			g = gcd(g, c.Off)
		}
	}
	p.scale = int64(8 / g)
	for _, o := range t.Objects {
		last := 0
		for _, c := range o.Cells {
			last = max(last, c.Off)
		}
		n := last/g + 1
		v := &variable{name: "object " + o.Name, elem: 8, n: n, init: make([]value, n), width: 8, names: make([]string, n)}
		p.vars = append(p.vars, v)
		for _, c := range o.Cells {
			if _, dup := p.cells[c.Loc]; dup {
				return p.errorf(o.Pos(), "object %s: %s is a cell of two objects", o.Name, c.Loc)
			}
			v.names[c.Off/g] = c.Loc
			p.cells[c.Loc] = cellRef{v, c.Off / g}
		}
	}
	return nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Objects reports that run lays out the test's objects, for ptr_add
// (cir.ObjectEnv).
func (e cEnv) Objects() bool { return true }

// OffsetScale is the factor from an object's byte offsets to its
// variable's (cir.OffsetScaler).
func (e cEnv) OffsetScale() int64 { return e.p.scale }
