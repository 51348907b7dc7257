package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInspectVisitsCallsInSourceOrder(t *testing.T) {
	src := `C walk
{}
P0(int *x, int *y)
{
	int r0;
	int r1 = READ_ONCE(*x);
	if (READ_ONCE(*y) == 1) {
		WRITE_ONCE(*x, smp_load_acquire(y));
	} else {
		while (r0 < 2)
			r0 = r0 + xchg(x, 1);
	}
	smp_mb();
}
exists (x=1)
`
	test, err := Parse("walk.litmus", []byte(src))
	require.NoError(t, err)
	var calls []string
	depth, maxDepth := 0, 0
	Inspect(test.Procs[0].Body, func(n Node) bool {
		if n == nil {
			depth--
			return false
		}
		depth++
		maxDepth = max(maxDepth, depth)
		if c, ok := n.(*CallExpr); ok {
			calls = append(calls, c.Fun.Name)
		}
		return true
	})
	require.Equal(t, []string{"READ_ONCE", "READ_ONCE", "WRITE_ONCE", "smp_load_acquire", "xchg", "smp_mb"}, calls)
	require.Zero(t, depth, "every visited node is closed by f(nil)")
	require.Greater(t, maxDepth, 4)

	// Returning false prunes the subtree.
	n := 0
	Inspect(test.Procs[0].Body, func(node Node) bool {
		if _, ok := node.(*IfStmt); ok {
			return false
		}
		if node != nil {
			n++
		}
		return node != nil
	})
	require.Less(t, n, 12)
}

func TestEachAtomVisitsAtomsInSourceOrder(t *testing.T) {
	src := "C atoms\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (0:r0=1 /\\ ~(x=2 \\/ (y=3 /\\ true)) /\\ z=x)\n"
	test, err := Parse("atoms.litmus", []byte(src))
	require.NoError(t, err)
	var atoms []string
	EachAtom(test.Cond.Prop, func(a *AtomProp) { atoms = append(atoms, PropString(a)) })
	require.Equal(t, []string{"0:r0=1", "x=2", "y=3", "z=x"}, atoms)

	test, err = Parse("final.litmus", []byte("C final\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nfilter (x=1)\nexists (x=2)\ninvariant (x=3)\n"))
	require.NoError(t, err)
	var props []string
	for _, p := range test.FinalProps() {
		props = append(props, PropString(p))
	}
	require.Equal(t, []string{"(x=1)", "(x=2)", "(x=3)"}, props)
}
