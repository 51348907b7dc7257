package axiom

import (
	"testing"

	"pgregory.net/rapid"
)

// naiveSeq and naivePlus are the definitions, over pairs.
func naiveSeq(r, s Rel, n int) Rel {
	u := NewRel(n)
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			if !r.Has(i, k) {
				continue
			}
			for j := 0; j < n; j++ {
				if s.Has(k, j) {
					u.Add(i, j)
				}
			}
		}
	}
	return u
}

func naivePlus(r Rel, n int) Rel {
	u := r.Clone()
	for changed := true; changed; {
		changed = false
		next := naiveSeq(u, r, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if next.Has(i, j) && !u.Has(i, j) {
					u.Add(i, j)
					changed = true
				}
			}
		}
	}
	return u
}

func drawRel(t *rapid.T, n int, name string) Rel {
	r := NewRel(n)
	for _, p := range rapid.SliceOfN(rapid.IntRange(0, n*n-1), 0, 3*n).Draw(t, name) {
		r.Add(p/n, p%n)
	}
	return r
}

func sameRel(a, b Rel, n int) bool {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if a.Has(i, j) != b.Has(i, j) {
				return false
			}
		}
	}
	return true
}

// TestSeqPlus checks the word-level composition and transitive closure,
// whose loops are specialised for one and two words per row, against
// their definitions, on sizes around the word boundaries.
func TestSeqPlus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{1, 5, 63, 64, 65, 100, 127, 128, 129, 150}).Draw(t, "n")
		r, s := drawRel(t, n, "r"), drawRel(t, n, "s")
		if !sameRel(r.Seq(s), naiveSeq(r, s, n), n) {
			t.Fatalf("r;s differs from its definition (n=%d)", n)
		}
		want := naivePlus(r, n)
		if !sameRel(r.Plus(), want, n) {
			t.Fatalf("r+ differs from its definition (n=%d)", n)
		}
		if r.Acyclic() != want.Irreflexive() {
			t.Fatalf("Acyclic is %v, r+ irreflexive is %v (n=%d)", r.Acyclic(), want.Irreflexive(), n)
		}
		plus, ok := r.PlusCheck()
		if !sameRel(plus, want, n) || ok != want.Irreflexive() {
			t.Fatalf("PlusCheck differs from r+ and its irreflexivity (n=%d)", n)
		}
	})
}

// TestArenaReuse checks the operations whose results take words an
// arena held before without clearing them (every word is written)
// against the same operations on zeroed words: the arena is filled with
// ones, then reset.
func TestArenaReuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{1, 5, 63, 64, 65, 100, 127, 128, 129, 150}).Draw(t, "n")
		r, s := drawRel(t, n, "r"), drawRel(t, n, "s")
		al := &Arena{}
		mark := al.Mark()
		for range 8 {
			junk := al.Rel(n)
			for i := range junk.b {
				junk.b[i] = ^uint64(0)
			}
		}
		al.Reset(mark)
		ar, as := r.CopyTo(al), s.CopyTo(al)
		for _, c := range []struct {
			name      string
			got, want Rel
		}{
			{"clone", ar.Clone(), r.Clone()},
			{"r&s", ar.Inter(as), r.Inter(s)},
			{"r\\s", ar.Minus(as), r.Minus(s)},
			{"r;s", ar.Seq(as), naiveSeq(r, s, n)},
			{"r|s", Union(ar, as), Union(r, s)},
			{"r+", ar.Plus(), naivePlus(r, n)},
		} {
			if !sameRel(c.got, c.want, n) || !c.got.Equal(c.want) {
				t.Fatalf("%s on reused words differs (n=%d)", c.name, n)
			}
		}
	})
}
