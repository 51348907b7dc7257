package model

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// TestComparisonsAcrossModels checks that C's six comparisons compute
// one value under every model: each pair of three values read from
// memory, compared both ways, as a value and as a branch. It failed on
// arm64 before >= was compiled as "not less than": herd 7.58 (and
// model/arch, which follows it) reads CSET d,GE as <=.
func TestComparisonsAcrossModels(t *testing.T) {
	vals := []int{0, 1, 3}
	var b strings.Builder
	b.WriteString("C cmp\n{ int v0 = 0; int v1 = 1; int v2 = 3; }\n")
	var locs []string
	proc := 0
	for i := range vals {
		for j := range vals {
			fmt.Fprintf(&b, "P%d(int *v%d, int *v%d)\n{\n\tint a = READ_ONCE(*v%d);\n\tint b = READ_ONCE(*v%d);\n", proc, i, j, i, j)
			for k, op := range []string{"<", "<=", ">", ">=", "==", "!="} {
				fmt.Fprintf(&b, "\tint c%d = a %s b;\n\tint d%d = 0;\n\tif (a %s b)\n\t\td%d = 1;\n", k, op, k, op, k)
				locs = append(locs, fmt.Sprintf("%d:c%d", proc, k), fmt.Sprintf("%d:d%d", proc, k))
			}
			b.WriteString("}\n")
			proc++
		}
	}
	fmt.Fprintf(&b, "locations [%s]\nexists (0:c0=0)\n", strings.Join(locs, "; "))
	test, err := litmus.Parse("cmp.litmus", []byte(b.String()))
	require.NoError(t, err)
	states := func(m Model) []string {
		r, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		var out []string
		for _, s := range r.States.All() {
			out = append(out, s.String())
		}
		return out
	}
	want := states(SC)
	require.Len(t, want, 1)
	for _, m := range allModels() {
		require.Equal(t, want, states(m), "comparisons under %s", m)
	}
}
