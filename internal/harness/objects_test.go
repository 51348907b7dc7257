package harness

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// objectTests are the address idiom tests: ptr_add within an object, at a
// constant offset (rcu-publish: p->b; rcu-container: container_of) and
// at one computed at run time (the ring slot indexed by the head read).
var objectTests = []string{"rcu-publish-code", "rcu-publish-once-code", "rcu-container-code", "ring-dep-code", "ring-acquire-code", "ring-ctrl-code"}

// TestRunObjects runs the address idiom tests (under qemu-aarch64 too,
// qemuTests): each must run, not be refused, and every state observed
// must be one the models allow (runAgainstModels).
func TestRunObjects(t *testing.T) {
	if !Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	for _, name := range objectTests {
		t.Run(name, func(t *testing.T) {
			require.True(t, runAgainstModels(t, filepath.Join("../../testdata/code", name+".litmus"), smallRun()), "%s runs", name)
		})
	}
}

// TestObjectLayout checks where an object's cells lie: at Scale times
// their byte offsets, one word each, contiguous in an instance.
func TestObjectLayout(t *testing.T) {
	for _, c := range []struct {
		src   string
		scale int64
		words map[string]int // cell -> word in its object's variable
	}{
		{"C o\n{ int a; int b; object f { 0: a; 4: b; }; int *p = a; }\nP0(int **p) {\n\tint *q = READ_ONCE(*p);\n\tint r0 = READ_ONCE(*ptr_add(q, 4));\n}\nexists (0:r0=0)\n",
			2, map[string]int{"a": 0, "b": 1}},
		{"C o\n{ long a; long b; object f { 0: a; 8: b; }; long *p = a; }\nP0(long **p) {\n\tlong *q = READ_ONCE(*p);\n\tlong r0 = READ_ONCE(*ptr_add(q, 8));\n}\nexists (0:r0=0)\n",
			1, map[string]int{"a": 0, "b": 1}},
		{"C o\n{ int c; long l; object f { 0: c; 8: l; }; long *p = c; }\nP0(long **p) {\n\tlong *q = READ_ONCE(*p);\n\tlong r0 = READ_ONCE(*ptr_add(q, 8));\n}\nexists (0:r0=0)\n",
			1, map[string]int{"c": 0, "l": 1}},
	} {
		tt, err := litmus.Parse("o.litmus", []byte(c.src))
		require.NoError(t, err)
		p, err := compile(tt, "x86-64", Options{}.withDefaults())
		require.NoError(t, err, c.src)
		require.Equal(t, c.scale, p.scale, c.src)
		for cell, w := range c.words {
			v, i, ok := p.elemOf(cell)
			require.True(t, ok, cell)
			require.Equal(t, w, i, "%s: its word", cell)
			require.Equal(t, "object f", v.name)
			require.Equal(t, cell, v.elemName(i))
		}
	}
}
