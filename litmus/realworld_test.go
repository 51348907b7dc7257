package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRealWorldForms parses shapes that occur in the public collections of
// kernel litmus tests (Paul McKenney's litmus repository with its
// generated auto/ tests and diy7 output, the kernel's own tests), found by
// running the checker over a sample of them. Each snippet is written for
// this test; besides parsing and round-tripping, each checks the part of
// the tree that the shape is about.
func TestRealWorldForms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		check func(t *testing.T, tst *Test)
	}{
		{
			"diy7 header lines in a C test",
			"C MP+wmb+addr\n\"Fence PodWW Rfe Addr Fre\"\nPrefetch=0:x=F,0:y=W\nCom=Rf Fr\nOrig=Fence PodWW Rfe\n{\n}\n\n" +
				"P0(int *x, int *y)\n{\n\tWRITE_ONCE(*x, 1);\n\tsmp_wmb();\n\tWRITE_ONCE(*y, 1);\n}\n\nexists\n(x=1)\n",
			func(t *testing.T, tst *Test) {
				require.Equal(t, "Fence PodWW Rfe Addr Fre", tst.Doc)
				require.Len(t, tst.Meta, 3)
				require.Equal(t, "Prefetch", tst.Meta[0].Key)
				require.Equal(t, "0:x=F,0:y=W", tst.Meta[0].Value)
				require.Equal(t, "Orig", tst.Meta[2].Key)
				require.Equal(t, "Fence PodWW Rfe", tst.Meta[2].Value)
			},
		},
		{
			"test name with brackets and a path",
			"C auto/MP+[fr-rf]+addr\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n",
			func(t *testing.T, tst *Test) { require.Equal(t, "auto/MP+[fr-rf]+addr", tst.Name) },
		},
		{
			"no final condition, as in a deadlock test",
			"C dl\n(*\n * Result: DEADLOCK\n *)\n{\n}\n\nP0(spinlock_t *l)\n{\n\tspin_lock(l);\n\tspin_lock(l);\n}\n",
			func(t *testing.T, tst *Test) {
				require.Nil(t, tst.Cond)
				require.Equal(t, map[string]string{"LKMM": "DEADLOCK"}, tst.Expectations())
			},
		},
		{
			"a comment block after the condition",
			"C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n(* A note that\n   spans two lines. *)\n",
			func(t *testing.T, tst *Test) {
				require.NotEmpty(t, tst.Comments)
				require.Contains(t, tst.Comments[len(tst.Comments)-1].Text, "spans two lines")
			},
		},
		{
			"exists without a space, a trailing semicolon and spaced equalities",
			"C t\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(*x); }\nexists(0:r0 = 0 /\\ x = 0);\n",
			func(t *testing.T, tst *Test) { require.NotNil(t, tst.Cond) },
		},
		{
			"a brace on the parameter line, an empty spaced init, two declarations on a line",
			"C t\n{ }\n\nP0(int *x) {\n  int r0; int r1;\n  r0 = READ_ONCE(*x) ;\n}\nexists (0:r0=0)\n",
			func(t *testing.T, tst *Test) { require.Len(t, tst.Procs[0].Body.List, 3) },
		},
		{
			"a register initialised in the init block and redeclared from itself",
			"C t\n{\n 0:r4=1;\n}\n\nP0(intptr_t *x, intptr_t *y)\n{\n\tintptr_t r1 = READ_ONCE(*x);\n" +
				"\tintptr_t r4 = (r1 == r4);\n\tif (r4) {\n\t\tintptr_t r2 = READ_ONCE(*y);\n\t}\n}\n\nexists (0:r1=1 /\\ 0:r2=0)\n",
			func(t *testing.T, tst *Test) {
				require.Len(t, tst.Init, 1)
				require.Equal(t, 0, tst.Init[0].Proc)
				require.Equal(t, "r4", tst.Init[0].Name)
			},
		},
		{
			"pointer locations initialised to addresses, registers compared with addresses",
			"C t\n{\n\tint a = 1;\n\tint *p = &a;\n\tq = b;\n\t1:r0 = p;\n}\n\nP0(int **p, int *b)\n{\n\tint *r1; int r2;\n" +
				"\tr1 = READ_ONCE(*p);\n\tr2 = READ_ONCE(*r1);\n}\n\nP1(int **p, int *b)\n{\n\tWRITE_ONCE(*b, 1);\n" +
				"\tsmp_store_release(p, b);\n}\n\nexists (0:r1 = b /\\ 0:r2 = 0)\n",
			func(t *testing.T, tst *Test) { require.Len(t, tst.Init, 4) },
		},
		{
			"locations of registers and a register compared with a register",
			"C t\n{}\nP0(int *x) { int r1; r1 = READ_ONCE(*x); }\nP1(int *x) { int r2; r2 = READ_ONCE(*x); }\n" +
				"locations [x;0:r1;1:r2]\nexists (~x=1 \\/ 0:r1=1:r2)\n",
			func(t *testing.T, tst *Test) {
				require.Len(t, tst.Locations, 3)
				require.Equal(t, 1, tst.Locations[2].Proc)
			},
		},
		{
			"undeclared registers, one of them named like a C keyword",
			"C t\n{}\nP0(int *s)\n{\n\tcontinue = 1;\n\ttop = READ_ONCE(*s);\n\tif (top == 0)\n\t\tcontinue = 0;\n" +
				"\tfor++;\n\tbreak;\n}\nexists (0:continue=1 /\\ 0:top=1)\n",
			func(t *testing.T, tst *Test) {
				list := tst.Procs[0].Body.List
				require.Len(t, list, 5)
				a, ok := list[0].(*AssignStmt)
				require.True(t, ok, "continue = 1 is an assignment, not a branch: %T", list[0])
				require.Equal(t, "continue", a.LHS.(*Ident).Name)
				inc, ok := list[3].(*AssignStmt)
				require.True(t, ok, "for++ is an increment: %T", list[3])
				require.Equal(t, "++", inc.Op)
				require.IsType(t, &BranchStmt{}, list[4], "a lone break stays a branch")
			},
		},
		{
			"a test name ending in .litmus, which herd drops",
			"LISA rcu-B-cumulativity-failure.litmus\n{}\n P0 ;\n f[mb] ;\nexists (x=0)\n",
			func(t *testing.T, tst *Test) { require.Equal(t, "rcu-B-cumulativity-failure", tst.Name) },
		},
		{
			"a second header line before the init block",
			"C JanStancek-rwsem\nC rwsem\n\n{\n\tint s = 10;\n}\n\nP0(int *s)\n{\n\tWRITE_ONCE(*s, 1);\n}\n\nexists (s=1)\n",
			func(t *testing.T, tst *Test) {
				require.Equal(t, "JanStancek-rwsem", tst.Name, "the first name is the test's, as in herd")
				require.Empty(t, tst.Meta)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tst, err := Parse("t.litmus", []byte(tc.src))
			require.NoError(t, err)
			tc.check(t, tst)
			requireRoundTrip(t, "t.litmus", tst)
		})
	}
}

// TestOtherDialectsRejected checks that a dialect the collections also
// hold, which this package does not read, gives one clear error at the
// header rather than a cascade of syntax errors.
func TestOtherDialectsRejected(t *testing.T) {
	src := "MIPS SB\n{\n0:r2=x; 0:r4=y;\n1:r2=y; 1:r4=x;\n}\n P0           | P1           ;\n" +
		" ori $1,$0,1  | ori $1,$0,1  ;\n sw $1,0($2)  | sw $1,0($2)  ;\n lw $3,0($4)  | lw $3,0($4)  ;\n" +
		"exists (0:r3=0 /\\ 1:r3=0)\n"
	_, err := Parse("t.litmus", []byte(src))
	require.Error(t, err)
	var list ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 1, "one error, not a cascade: %v", err)
	require.Equal(t, `t.litmus:1:1: unsupported architecture "MIPS" (want C, X86, X86_64, AArch64, RISCV, PPC or LISA)`, err.Error())
}
