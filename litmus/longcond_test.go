package litmus

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// longCond is a test whose condition has n conjuncts.
func longCond(n int) string {
	return "C conds\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (" + strings.Repeat("x=1 /\\ ", n-1) + "x=1)\n"
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLongConditionIsLinear: a condition of 20,000 conjuncts parses and
// prints with memory linear in its length. Printing used to concatenate
// strings up the left-deep tree, quadratic: 40,000 conjuncts took 6.4 s.
func TestLongConditionIsLinear(t *testing.T) {
	src := longCond(20000)
	var tst *Test
	parse := allocated(func() {
		var err error
		tst, err = Parse("t.litmus", []byte(src))
		require.NoError(t, err)
	})
	require.Less(t, parse, uint64(400*len(src)), "parsing allocated %d bytes for %d", parse, len(src))
	var out string
	print := allocated(func() { out = PropString(tst.Cond.Prop) })
	require.Equal(t, len("(")+len("x=1 /\\ ")*19999+len("x=1)"), len(out))
	require.Less(t, print, uint64(20*len(out)), "printing allocated %d bytes for %d", print, len(out))
}

func BenchmarkLongCondition(b *testing.B) {
	src := []byte(longCond(40000))
	for i := 0; i < b.N; i++ {
		tst, err := Parse("t.litmus", src)
		if err != nil {
			b.Fatal(err)
		}
		_ = Format(tst)
	}
}
