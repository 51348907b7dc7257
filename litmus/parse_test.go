package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// cTest wraps a process body into a complete C test.
func cTest(body string) string {
	return "C t\n{}\nP0(int *x, int *y, atomic_t *a, spinlock_t *l)\n{\n" + body + "\n}\nexists (x=1)\n"
}

// TestValidC parses C bodies that must be accepted, and round-trips them.
func TestValidC(t *testing.T) {
	for _, body := range []string{
		"",
		"int r0;",
		"int r0 = 1, r1;",
		"int *r2; int* r3; unsigned long r4; volatile int r5;",
		"r0 = READ_ONCE(*x);",
		"*x = 1;",
		"r1 = *x;",
		"r0 += 2; r0 -= 1; r0 *= 3; r0 /= 2; r0 %= 5; r0 &= 1; r0 |= 2; r0 ^= 3; r0 <<= 1; r0 >>= 1;",
		"r0++; r0--; ++r0; --r0;",
		"if (r0) WRITE_ONCE(*x, 1);",
		"if (r0 == 1) { WRITE_ONCE(*x, 1); } else if (r0 == 2) { WRITE_ONCE(*x, 2); } else WRITE_ONCE(*x, 3);",
		"while (READ_ONCE(*x) == 0) cpu_relax();",
		"do { r0 = READ_ONCE(*x); } while (r0 == 0);",
		"do r0 = READ_ONCE(*x); while (!r0);",
		"for (int i = 0; i < 2; i++) { WRITE_ONCE(*x, i); }",
		"for (;;) { break; }",
		"for (r0 = 0; r0 < 3; r0 += 1) continue;",
		"r0 = 1 + 2 * 3 - 4 / 2 % 3 & 7 | 8 ^ 1 << 2 >> 1;",
		"r0 = r1 == 1 && r2 != 2 || !r3 && ~r4 < 5 && r5 <= 6 && r6 > 7 && r7 >= 8;",
		"r0 = r1 ? r2 : r3 ? 4 : 5;",
		"r0 = -1; r1 = - -1; r2 = -(-1); r3 = -r0; r4 = 0x10; r5 = 1UL;",
		"r2 = rcu_dereference(*y); r3 = READ_ONCE(*r2);",
		"r0 = &x; p = x;",
		"(void)atomic_add_unless(a, 1, 0);",
		"r0 = (int)READ_ONCE(*x); r1 = (int *)r0;",
		"spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l);",
		"r0 = cmpxchg(x, 0, 1); r1 = xchg_relaxed(y, 2); r2 = atomic_inc_return(a);",
		"smp_mb(); smp_rmb(); smp_wmb(); smp_mb__before_atomic(); smp_mb__after_atomic();",
		"r0 = test_and_set_bit(0, x); clear_bit_unlock(0, x);",
		"r0 = t[1]; t[0] = 2;",
		"{ int r9; r9 = 1; }",
		";",
		"// a comment\n/* another */ r0 = 1; /* trailing */",
		"smp_mb();\n\tWRITE_ONCE(*x, 1);",
		"intptr_t r4 = (r1 == r4); if (r4) { intptr_t r2 = READ_ONCE(*y); }",
		"r1 = lockless_dereference(*x); smp_read_barrier_depends(); r2 = READ_ONCE(*r1);",
	} {
		src := cTest(body)
		tst, err := Parse("t.litmus", []byte(src))
		require.NoError(t, err, "body %q", body)
		requireRoundTrip(t, "t.litmus", tst)
	}
}

// TestInvalidSnippets checks that bad input gives the right error.
func TestInvalidSnippets(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"", "expected architecture C, X86, X86_64, AArch64, RISCV, PPC or LISA, found EOF"},
		{"C", "expected test name after C"},
		{"C t", "expected {, found EOF"},
		{"MIPS t\n{}\n", `unsupported architecture "MIPS"`},
		{"C t\n{", "expected } closing the init block, found EOF"},
		{"C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1) }", "expected ;, found '}'"},
		{"C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1);", "expected }, found EOF"},
		{"C t\n{}\nP0(int *x { }", "expected ), found '{'"},
		{"C t\n{}\nP0(x) { }", "expected type before parameter x"},
		{"C t\n{}\nP0(int *x) { smp_mb_after_atomic(); }", "did you mean smp_mb__after_atomic?"},
		{"C t\n{}\nP0(int *x) { r0 = READ_ONCE(*x, 2); }", "wrong number of arguments to READ_ONCE: have 2, want 1"},
		{"C t\n{}\nP0(int *x) { r0 = 1 + ; }", "expected expression, found ';'"},
		{"C t\n{}\nP0(int *x) { r0 = 99999999999999999999999; }", "invalid integer literal"},
		{"C t\n{}\nP0(int *x) { r0 = 1 @ 2; }", "illegal character '@'"},
		{"C t\n{}\nP0(int *x) { }\nexists (x=)", "expected value, found ')'"},
		{"C t\n{}\nP0(int *x) { }\nexists (x=1", "expected ), found EOF"},
		{"C t\n{}\nP0(int *x) { }\nexists (x=1) y=2", "expected exists, ~exists, forall, locations, filter or invariant"},
		{"C t\n{}\nP0(int *x) { }\n~forall (x=1)", "expected exists after ~"},
		{"C t\n{}\nP0(int *x) { }\nlocations [x; 0:r0", "expected ], found EOF"},
		{"C t\n{ x=1; y=; }\n", "expected expression, found ';'"},
		{"C t\n{ int x[0]; }\n", "expected array size"},
		{"X86 t\n{}\n P0 | P1 ;\n MOV EAX,[x] ;\n", ""},
		{"X86 t\n{}\n P0 | P1 ;\n FOO EAX,EBX,+ ;\n", "unexpected text in operand '+'"},
		{"X86 t\n{}\n P0 ;\n LOCK ;\n", "expected instruction after LOCK"},
		{"X86_64 t\n{}\n P0 ;\n movl $1,(x ;\n", "expected ( in operand '(x'"},
		{"X86_64 t\n{}\n P0 ;\n movl %zz:0(%rax),%eax ;\n", "expected segment register"},
		// Forms that kernel tests use and herd accepts.
		{"C t\n{ 0:r3=x2; x1=y1; }\nP0(int *x) { }\nexists (0:r0=1:r0 \\/ (* a comment *)\n\tx=1 \\/ ~x=y);\n", ""},
		{"C t\n{}\nP0(int *x) { }\nlocations [0:r1]\nexists (x=1) (* trailing *)\n", ""},
		{"X86 SB \"Fre PodWR Fre PodWR\"\n{}\n P0 ;\n MFENCE ;\n", ""},
		{"C t extra words\n{}\nP0(int *x) { }\nexists (x=0)\n", ""},
		{"C t\nsome words herd skips\n{}\nP0(int *x) { }\nexists (x=0)\n", ""},
		{"C t {\n{}\n", "unexpected \"{\" after test name"},
		{"\xef\xbb\xbfC t\r\n{ x=1; }\r\nP0(int *x)\r\n{\r\n\tWRITE_ONCE(*x, 2);\r\n}\r\nexists (x=2)\r\n", ""},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if tc.want == "" {
			require.NoError(t, err, "%q", tc.src)
			continue
		}
		require.Error(t, err, "%q should not parse", tc.src)
		require.Contains(t, err.Error(), tc.want, "source %q", tc.src)
		require.True(t, strings.HasPrefix(err.Error(), "t.litmus:"), "no file:line:col in %q", err)
	}
}

// TestDeepNesting checks that deep nesting is an error, not a crash.
func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		cTest("r0 = " + strings.Repeat("(", 100000) + "1;"),
		cTest("r0 = " + strings.Repeat("- ", 100000) + "1;"),
		cTest(strings.Repeat("{", 100000)),
		cTest(strings.Repeat("if (1) ", 100000) + ";"),
		"C t\n{}\nexists " + strings.Repeat("~(", 100000),
	} {
		_, err := Parse("t.litmus", []byte(src))
		require.ErrorContains(t, err, "nesting too deep")
	}
	// Reasonable nesting is fine.
	_, err := Parse("t.litmus", []byte(cTest("r0 = "+strings.Repeat("(", 100)+"1"+strings.Repeat(")", 100)+";")))
	require.NoError(t, err)
}

// TestTooManyErrors checks that Parse stops after ten errors.
func TestTooManyErrors(t *testing.T) {
	body := strings.Repeat("r0 = ;\n", 50)
	_, err := Parse("t.litmus", []byte(cTest(body)))
	var list ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, maxErrors)
	require.Contains(t, err.Error(), "(and 9 more errors)")
}

// TestTreeShape checks what the parser builds for herd's quirks.
func TestTreeShape(t *testing.T) {
	src := `C shape
"a doc"
{
	int x = 0; y=1; int *p = &x; q=y; atomic_t a = ATOMIC_INIT(1);
	0:r1=2; int 1:r2 = -3; int64_t t[2]={1,-1}; unsigned long u; struct foo *s;
	spinlock_t l
}
P0(volatile int* x, int *y, struct srcu_struct *ss)
{
	int r0 = 1, *r1;

	(void)READ_ONCE(*x);
	r0 = -1;
}
P1() { }
locations [x; 0:r0;]
filter (0:r0=1)
exists (0:r0=-1 /\ [x]=0x10 /\ 0:r1=x /\ t[1]=2 /\ 0:r0=1:r2 /\ ~(y!=1) \/ not true => false)
invariant (x=0 \/ x=1)
`
	tst, err := Parse("shape.litmus", []byte(src))
	require.NoError(t, err)
	require.Equal(t, ArchC, tst.Arch)
	require.Equal(t, "shape", tst.Name)
	require.Equal(t, "a doc", tst.Doc)

	init := tst.Init
	require.Len(t, init, 11)
	require.Equal(t, "int", init[0].Type)
	require.Equal(t, &Ident{NamePos: init[3].Value.Pos(), Name: "y"}, init[3].Value, "q=y is the address of y")
	require.Equal(t, "int *", init[2].Type)
	require.IsType(t, &CallExpr{}, init[4].Value)
	require.Equal(t, 0, init[5].Proc)
	require.Equal(t, "r1", init[5].Name)
	require.Equal(t, 1, init[6].Proc)
	require.Equal(t, int64(-3), init[6].Value.(*IntLit).Value)
	require.Equal(t, 2, init[7].Len)
	require.Equal(t, "int64_t", init[7].Type)
	require.Equal(t, "unsigned long", init[8].Type)
	require.Equal(t, "struct foo *", init[9].Type)
	require.Equal(t, "spinlock_t", init[10].Type)
	require.Nil(t, init[10].Value)
	require.Equal(t, -1, init[0].Proc)

	p0 := tst.Procs[0]
	require.Equal(t, "volatile int *", p0.Params[0].Type)
	require.Equal(t, "struct srcu_struct *", p0.Params[2].Type)
	require.Len(t, p0.Body.List, 4)
	require.Equal(t, "int", p0.Body.List[0].(*DeclStmt).Type)
	require.Equal(t, "int *", p0.Body.List[1].(*DeclStmt).Type)
	require.True(t, p0.Body.List[2].(*ExprStmt).Void)
	require.Equal(t, int64(-1), p0.Body.List[3].(*AssignStmt).RHS.(*IntLit).Value)
	require.Empty(t, tst.Procs[1].Params)

	require.Len(t, tst.Locations, 2)
	require.NotNil(t, tst.Filter)
	require.Equal(t, Exists, tst.Cond.Quant)
	require.Equal(t,
		`(0:r0=-1 /\ [x]=16 /\ 0:r1=x /\ t[1]=2 /\ 0:r0=1:r2 /\ ~(y!=1) \/ ~true => false)`,
		PropString(tst.Cond.Prop))
	imp := tst.Cond.Prop.(*ParenProp).X.(*BinProp)
	require.Equal(t, "=>", imp.Op)
	require.Equal(t, `\/`, imp.X.(*BinProp).Op, "/\\ binds tighter than \\/")
	require.Len(t, tst.Invariants, 1)
	requireRoundTrip(t, "shape.litmus", tst)
}

// TestX86Operands checks the operand decoding of both X86 syntaxes.
func TestX86Operands(t *testing.T) {
	src := `X86_64 ops
{ 0:rax=t; [x]=0; }
 P0                        ;
 movq 0(%rax,%rbx,8),%rcx  ;
 NOPL %cs:0(%rax,%eax,0)   ;
 lock xaddl %eax,(x)       ;
 shl 2,%eax                ;
 L1: je L1                 ;
forall 0:rcx=-1
`
	tst, err := Parse("ops.litmus", []byte(src))
	require.NoError(t, err)
	code := tst.Procs[0].Code
	require.Len(t, code, 6)
	m := code[0].Args[0]
	require.Equal(t, OpdMem, m.Kind)
	require.Equal(t, "rax", m.Base)
	require.Equal(t, "rbx", m.Index)
	require.Equal(t, 8, m.Scale)
	require.Equal(t, OpdReg, code[0].Args[1].Kind)
	require.Equal(t, "rcx", code[0].Args[1].Reg)
	require.Equal(t, "cs", code[1].Args[0].Seg)
	require.Equal(t, "LOCK", code[2].Prefix)
	require.Equal(t, "xaddl", code[2].Op)
	require.Equal(t, "x", code[2].Args[1].Sym)
	require.Equal(t, OpdImm, code[3].Args[0].Kind)
	require.Equal(t, int64(2), code[3].Args[0].Imm)
	require.Equal(t, "L1", code[4].Label)
	require.Equal(t, OpdLabel, code[5].Args[0].Kind)
	requireRoundTrip(t, "ops.litmus", tst)

	src = `X86 intel
{ x=0; }
 P0              | P1 ;
 MOV [x],$1      | MOV EAX,[x+ECX*4+8] ;
 LOCK XCHG [x],EAX | MFENCE ;
exists (1:EAX=1 /\ x=1)
`
	tst, err = Parse("intel.litmus", []byte(src))
	require.NoError(t, err)
	require.Equal(t, int64(1), tst.Procs[0].Code[0].Args[1].Imm)
	m = tst.Procs[1].Code[0].Args[1]
	require.Equal(t, "x", m.Sym)
	require.Equal(t, "ECX", m.Index)
	require.Equal(t, 4, m.Scale)
	require.Equal(t, int64(8), m.Disp)
	require.Equal(t, "LOCK", tst.Procs[0].Code[1].Prefix)
	require.Equal(t, "MFENCE", tst.Procs[1].Code[1].Op)
	requireRoundTrip(t, "intel.litmus", tst)
}
