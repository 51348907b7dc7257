package model

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// TestFencesLeavesTheTestAlone runs Fences and requires the caller's
// tree to equal a fresh parse of the same file afterwards: the
// weakenings are made on a copy (litmus.Clone), never on the caller's
// nodes. The tests have sites of every kind: C fences, acquires,
// releases and RMWs, and AArch64 barriers.
func TestFencesLeavesTheTestAlone(t *testing.T) {
	for _, c := range []struct {
		file string
		m    Model
	}{
		{"../testdata/wfree.litmus", TSO},
		{"../testdata/nospace.litmus", LKMM},
		{"../testdata/tsflags.litmus", SC},
		{"arch/testdata/herd-aarch64/MP+dmb.sy+ctrlcsel-addrs-addrsR-pos-ctrlisbs.litmus", AArch64},
	} {
		t.Run(c.file, func(t *testing.T) {
			test := parseFile(t, c.file)
			rep, err := Fences(context.Background(), test, c.m, Options{})
			require.NoError(t, err)
			require.NotEmpty(t, rep.Sites, "a test with no site would not show an edit")
			require.Equal(t, parseFile(t, c.file), test, "Fences edited the caller's test")
			// Restoring the tree afterwards is not enough (a concurrent
			// reader would see the weakenings): the sites weakened must
			// be nodes of a copy.
			callers := map[any]bool{}
			for _, p := range test.Procs {
				for _, in := range p.Code {
					callers[in] = true
				}
				if p.Body != nil {
					litmus.Inspect(p.Body, func(n litmus.Node) bool {
						if call, ok := n.(*litmus.CallExpr); ok {
							callers[call] = true
						}
						return true
					})
				}
			}
			for _, s := range rep.Sites {
				require.False(t, s.call != nil && callers[s.call], "%s: the call weakened is the caller's", s.Text)
				require.False(t, s.instr != nil && callers[s.instr], "%s: the instruction weakened is the caller's", s.Text)
			}
		})
	}
}
