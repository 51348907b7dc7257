package advice

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// Change is an ordering construct that a patch (OLD to NEW) changed,
// added or removed.
type Change struct {
	Thread int
	// OldLine and NewLine are the construct's lines in each version, 0
	// for one that is not there (added or removed).
	OldLine, NewLine int
	From, To         string // the constructs as written, "" for none
	// Weaker reports whether NEW's construct is cheaper than OLD's on
	// some architecture and dearer on none: the patch weakens the
	// ordering there.
	Weaker bool
	Costs  []ArchCost // OLD's instructions against NEW's
}

// Changes lists the ordering constructs that differ between two versions
// of a C test, thread by thread: the constructs of each thread are
// matched in order by their text (a longest common subsequence), and
// what is left unmatched between two matches is a change.
func Changes(old, new *litmus.Test) []Change {
	if old.Arch != litmus.ArchC || new.Arch != litmus.ArchC {
		return nil
	}
	byThread := func(t *litmus.Test) map[int][]*construct {
		m := map[int][]*construct{}
		for _, k := range constructs(t) {
			m[k.thread] = append(m[k.thread], k)
		}
		return m
	}
	ko, kn := byThread(old), byThread(new)
	var out []Change
	for _, p := range new.Procs {
		a, b := ko[p.ID], kn[p.ID]
		out = append(out, diffThread(p.ID, old, new, a, b)...)
	}
	return out
}

// diffThread aligns two threads' constructs.
func diffThread(thread int, old, new *litmus.Test, a, b []*construct) []Change {
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i].text == b[j].text {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []Change
	var gapA, gapB []*construct
	flush := func() {
		n := max(len(gapA), len(gapB))
		for k := 0; k < n; k++ {
			c := Change{Thread: thread}
			var from, to cost
			if k < len(gapA) {
				c.OldLine, c.From, from = old.File.Position(gapA[k].pos).Line, gapA[k].text, costOfAll([]string{nameOf(gapA[k].text)})
			} else {
				from = costOfAll(nil)
			}
			if k < len(gapB) {
				c.NewLine, c.To, to = new.File.Position(gapB[k].pos).Line, gapB[k].text, costOfAll([]string{nameOf(gapB[k].text)})
			} else {
				to = costOfAll(nil)
			}
			c.Weaker = to.weaker(from)
			c.Costs = costs(from, to)
			out = append(out, c)
		}
		gapA, gapB = nil, nil
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i].text == b[j].text:
			flush()
			i, j = i+1, j+1
		case j == len(b) || i < len(a) && lcs[i+1][j] >= lcs[i][j+1]:
			gapA = append(gapA, a[i])
			i++
		default:
			gapB = append(gapB, b[j])
			j++
		}
	}
	flush()
	return out
}

// nameOf is the primitive a construct's text calls.
func nameOf(text string) string {
	if i := strings.IndexByte(text, '('); i >= 0 {
		return text[:i]
	}
	return text
}
