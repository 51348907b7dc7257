package litmus

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// defPath is the kernel's herd macro table, in the shared corpus.
var defPath = corpusDir + "/lkmm/tools/memory-model/linux-kernel.def"

// defRow is what a linux-kernel.def line says about one primitive.
type defRow struct {
	name   string
	params []string
	kind   Kind
	order  Order
	fail   Order
	op     RMWOp
	ret    Ret
	fence  string
	loc    string // parameter naming the location, or ""
	ptr    bool   // the location parameter is a pointer (used as *X)
}

// TestPrimitivesMatchDef reads the kernel's linux-kernel.def with
// ParseDef and checks that every row it defines is the built-in row of
// that name (all but Source): the built-in table mirrors herd's, and
// ParseDef reads a kernel tree's .def the way the table was written.
func TestPrimitivesMatchDef(t *testing.T) {
	src, err := os.ReadFile(defPath)
	if err != nil {
		t.Skipf("linux-kernel.def not present: %v", err)
	}
	def, err := ParseDef(defPath, src)
	require.NoError(t, err)
	n := 0
	for name, p := range def {
		b, ok := Lookup(name)
		if !ok {
			t.Errorf("%s: in linux-kernel.def, missing from the built-in table", name)
			continue
		}
		if p == b {
			continue // not in the file: the built-in row
		}
		n++
		require.True(t, strings.HasPrefix(p.Source, defPath+":"), "%s: source %s", name, p.Source)
		require.Equal(t, srcDef, b.Source, "%s: the built-in row names the .def as its source", name)
		q := *p
		q.Source = b.Source
		require.Equal(t, *b, q, "%s: the .def's row and the built-in one differ", name)
	}
	require.Greater(t, n, 100)
	t.Logf("checked %d linux-kernel.def rows", n)
}

// TestPrimitiveTableShape checks invariants of every row.
func TestPrimitiveTableShape(t *testing.T) {
	for _, p := range Primitives() {
		require.NotEmpty(t, p.Source, p.Name)
		switch p.Kind {
		case KFence, KNop:
			require.Equal(t, -1, p.Loc, p.Name)
		default:
			require.True(t, p.Loc >= 0 && p.Loc < len(p.Args), "%s: Loc %d", p.Name, p.Loc)
			a := p.Args[p.Loc]
			require.True(t, a == ArgPtr || a == ArgLval, "%s: location argument kind %v", p.Name, a)
		}
		if p.Success == SuccAlways {
			require.Equal(t, OrdOnce, p.FailOrder, "%s: FailOrder without a success condition", p.Name)
		}
	}
}
