package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// lowered returns the flattened text of a code test's threads and init.
func lowered(t *testing.T, src string) (*Test, string) {
	t.Helper()
	test, err := Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	return test, string(Format(test))
}

// TestCodeAddresses checks the lowering of members, elements and
// containers reached through a pointer or an index read at run time:
// ptr_add at the member's byte offset in the kernel's layout, and the
// objects declared for it.
func TestCodeAddresses(t *testing.T) {
	const head = "C t\n\nstruct pair { char c; long l; int a[3]; };\nstruct box { int pad; struct pair p; };\n"
	test, out := lowered(t, head+`{ struct box b; struct pair *gp = &b.p; }
P0(struct pair **gp, struct box *b)
{
	struct pair *p = READ_ONCE(*gp);
	int i = READ_ONCE(b->pad);
	long r0 = READ_ONCE(p->l);
	int r1 = READ_ONCE(p->a[i]);
	struct box *q = container_of(p, struct box, p);
	int r2 = READ_ONCE(q->pad);
	long *lp = &p->l;
	WRITE_ONCE(*lp, 5);
	WRITE_ONCE(b->p.a[i + 1], 7);
}
exists (b.p.l=5)
`)
	for _, want := range []string{
		"object b { 0: b__pad; 8: b__p__c; 16: b__p__l; 24: b__p__a_0; 28: b__p__a_1; 32: b__p__a_2; };",
		"r0 = READ_ONCE(*ptr_add(p, 8));",
		"r1 = READ_ONCE(*ptr_add(p, 16 + (i) * 4));",
		"q = ptr_add(p, -8);",
		"r2 = READ_ONCE(*q);",
		"lp = ptr_add(p, 8);",
		"WRITE_ONCE(*ptr_add(b__p__a_0, (i + 1) * 4), 7);",
	} {
		require.Contains(t, out, want)
	}
	require.Len(t, test.Objects, 1, "gp is one scalar at offset 0: no object declared")
	require.NotEmpty(t, test.Code.Notes, "compile says herd's C has no ptr_add")

	// The flattened test parses back as a plain test, objects included.
	back, err := Parse("flat.litmus", []byte(out))
	require.NoError(t, err)
	require.Nil(t, back.Code)
	require.Equal(t, test.Objects[0].Cells, back.Objects[0].Cells)
	require.Equal(t, out, string(Format(back)))
}

// TestCodeAddressErrors checks that bad addressing through a run-time
// pointer still names its place.
func TestCodeAddressErrors(t *testing.T) {
	const head = "C t\n\nstruct foo { int a; int b; int v[2]; };\n{ struct foo f; struct foo *gp; }\n"
	for _, c := range []struct{ name, body, want string }{
		{"unknown member", "\tstruct foo *p = READ_ONCE(*gp);\n\tint r = READ_ONCE(p->bb);\n", "t.litmus:8:23: struct foo has no member bb (did you mean b?)"},
		{"constant index out of range", "\tstruct foo *p = READ_ONCE(*gp);\n\tint r = READ_ONCE(p->v[2]);\n", "t.litmus:8:25: index 2 out of range (2 elements)"},
		{"pointer index", "\tstruct foo *p = READ_ONCE(*gp);\n\tint r = READ_ONCE(p->v[p]);\n", "t.litmus:8:25: an array index must be an integer"},
		{"container member", "\tstruct foo *p = READ_ONCE(*gp);\n\tstruct foo *q = container_of(&p->b, struct foo, c);\n", "t.litmus:8:50: struct foo has no member c (did you mean a?)"},
		{"struct value", "\tstruct foo *p = READ_ONCE(*gp);\n\tint r = READ_ONCE(p->v);\n", "t.litmus:8:20: int[2] is not a scalar"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + "P0(struct foo **gp)\n{\n" + c.body + "}\nexists (f.a=0)\n"
			_, err := Parse("t.litmus", []byte(src))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

// TestObjectSyntax checks the plain dialect's object declaration and
// ptr_add: parsed, printed back, and its errors.
func TestObjectSyntax(t *testing.T) {
	src := "C o\n\n{\n\tint a = 0;\n\tint b = 0;\n\tobject f { 0: a; 4: b; };\n}\n\nP0(int *a)\n{\n\tint r0;\n\n\tr0 = READ_ONCE(*ptr_add(a, 4));\n}\n\nexists (0:r0=0)\n"
	test, err := Parse("o.litmus", []byte(src))
	require.NoError(t, err)
	require.Len(t, test.Objects, 1)
	require.Equal(t, []ObjectCell{{0, "a"}, {4, "b"}}, test.Objects[0].Cells)
	o, off := test.ObjectOf("b")
	require.Equal(t, "f", o.Name)
	require.Equal(t, 4, off)
	var found bool
	Inspect(test.Procs[0].Body, func(n Node) bool {
		if _, ok := n.(*OffsetExpr); ok {
			found = true
		}
		return true
	})
	require.True(t, found, "ptr_add(a, 4) is an OffsetExpr")
	require.Equal(t, src, string(Format(test)))

	// A location named object is still a location.
	_, err = Parse("o.litmus", []byte("C o\n{ object = 1; }\nP0(int *object)\n{\n\tWRITE_ONCE(*object, 2);\n}\nexists (object=2)\n"))
	require.NoError(t, err)

	for _, c := range []struct{ src, want string }{
		{"C o\n{ int a; int b; object f { 4: a; 0: b; }; }\nP0(int *a)\n{\n\tWRITE_ONCE(*a, 1);\n}\nexists (a=1)\n", "o.litmus:2:34: cells of object f must have increasing offsets"},
		{"C o\n{ int a; object f { a; }; }\nP0(int *a)\n{\n\tWRITE_ONCE(*a, 1);\n}\nexists (a=1)\n", "o.litmus:2:21: expected offset of a cell (n: location)"},
		{"C o\n{ int a; }\nP0(int *a)\n{\n\tWRITE_ONCE(*ptr_add(a), 1);\n}\nexists (a=1)\n", "wrong number of arguments to ptr_add"},
	} {
		_, err := Parse("o.litmus", []byte(c.src))
		require.Error(t, err, c.src)
		require.Contains(t, err.Error(), c.want)
	}
}
