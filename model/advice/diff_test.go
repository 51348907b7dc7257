package advice

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// TestChanges: constructs are matched thread by thread; a renamed
// barrier is a change, weaker when it orders less everywhere, and a
// removed one a change to nothing.
func TestChanges(t *testing.T) {
	src, err := os.ReadFile("testdata/mp-mbs.litmus")
	require.NoError(t, err)
	old, err := litmus.Parse("old.litmus", src)
	require.NoError(t, err)
	edited := strings.Replace(string(src), "\tsmp_mb();\n\tWRITE_ONCE(*y, 1);", "\tsmp_wmb();\n\tWRITE_ONCE(*y, 1);", 1)
	edited = strings.Replace(edited, "\tsmp_mb();\n\tr1", "\tr1", 1)
	new, err := litmus.Parse("new.litmus", []byte(edited))
	require.NoError(t, err)
	cs := Changes(old, new)
	require.Len(t, cs, 2)
	require.Equal(t, Change{Thread: 0, OldLine: 18, NewLine: 18, From: "smp_mb()", To: "smp_wmb()", Weaker: true, Costs: cs[0].Costs}, cs[0])
	require.Equal(t, "cheaper", cs[0].Costs[0].Relation, "lock addl -> nothing on x86")
	require.Equal(t, Change{Thread: 1, OldLine: 28, From: "smp_mb()", Weaker: true, Costs: cs[1].Costs}, cs[1])
	require.Empty(t, Changes(old, old), "no change")
}
