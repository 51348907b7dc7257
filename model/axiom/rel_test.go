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
		if !sameRel(r.Plus(), naivePlus(r, n), n) {
			t.Fatalf("r+ differs from its definition (n=%d)", n)
		}
	})
}
