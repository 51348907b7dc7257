package litmus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const codeHead = "C t\n\nstruct socket { unsigned long flags; };\nstruct sock { struct socket *sk_socket; int sk_val; };\n"

// TestCodeErrors checks that bad kernel C names its place.
func TestCodeErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown field", codeHead + "{ struct socket so; struct sock sk = { .sk_socket = &so }; }\nP0(struct sock *sk)\n{\n\tWRITE_ONCE(sk->sk_sokcet->flags, 1);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:8:17: struct sock has no member sk_sokcet (did you mean sk_socket?)"},
		{"undefined function", codeHead + "{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tsk_set_nospce(sk);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:8:2: undefined function sk_set_nospce"},
		{"recursion", codeHead + "static void f(struct sock *sk) { f(sk); }\n{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tf(sk);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:5:34: recursive call of f (f -> f)"},
		{"type mismatch", codeHead + "static void f(struct sock *sk) { WRITE_ONCE(sk->sk_val, 1); }\n{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tf(1);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:9:4: argument 1 of f: have int, want struct sock *"},
		{"unknown path", codeHead + "{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tWRITE_ONCE(sk->sk_val, 1);\n}\nexists (sk.sk_vall=0)\n",
			"t.litmus:10:9: unknown location sk.sk_vall (did you mean sk.sk_val?)"},
		{"designator", codeHead + "{ struct sock sk = { .sk_vl = 1 }; }\nP0(struct sock *sk)\n{\n\tWRITE_ONCE(sk->sk_val, 1);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:5:23: struct sock has no member sk_vl (did you mean sk_val?)"},
		{"written pointer", codeHead + "{ struct socket so; struct sock sk; }\nP0(struct sock *sk, struct socket *so)\n{\n\tsk->sk_socket = so;\n}\nP1(struct sock *sk)\n{\n\tstruct socket *s = sk->sk_socket;\n}\nexists (sk.sk_val=0)\n",
			"is read with a plain access and resolved to its initial value, but a thread writes it"},
		{"null", codeHead + "{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tWRITE_ONCE(sk->sk_socket->flags, 1);\n}\nexists (sk.sk_val=0)\n",
			"t.litmus:8:13: NULL pointer dereference"},
		{"local address as a value", codeHead + "{ struct sock sk; }\nP0(struct sock *sk)\n{\n\tint v = 0;\n\tint r = &v == 0;\n}\nexists (sk.sk_val=0)\n",
			"the address of a local used as a value"},
		{"ops table read with a marked access", "C t\nstruct ops { void (*kick)(int *x); };\nstatic void kick(int *x) { WRITE_ONCE(*x, 1); }\nstruct dev { const struct ops *ops; int a; };\n{ struct ops o = { .kick = kick }; struct dev d = { .ops = &o }; }\nP0(struct dev *d)\n{\n\tstruct ops *r = READ_ONCE(d->ops);\n}\nexists (d.a=0)\n",
			"t.litmus:5:47: d.ops points to o+0, which is no scalar location (function pointers only): read it only with plain accesses"},
		{"try_cmpxchg of a pointer", codeHead + "{ struct socket so; struct sock sk = { .sk_socket = &so }; }\nP0(struct sock *sk)\n{\n\tstruct socket *old = 0;\n\tint ok = try_cmpxchg(&sk->sk_val, &old, 1);\n}\nexists (sk.sk_val=0)\n",
			"argument 2 of try_cmpxchg must point to an integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.litmus", []byte(c.src))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

// TestCodeInclude checks #include beside the test, and its cycle error.
func TestCodeInclude(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.h"), []byte("#define TWO 2\nstruct s { int x; int y[TWO]; };\n"), 0o644))
	src := "C inc\n#include \"a.h\"\n{ struct s o = { .y[1] = TWO }; }\nP0(struct s *o)\n{\n\tWRITE_ONCE(o->y[0], READ_ONCE(o->y[1]));\n}\nexists (o.y[0]=2)\n"
	test, err := Parse(filepath.Join(dir, "inc.litmus"), []byte(src))
	require.NoError(t, err)
	require.Equal(t, "o__y_0", test.Cond.Prop.(*ParenProp).X.(*AtomProp).Loc.Name)
	require.Equal(t, "o__y_0", test.Code.Paths["o.y[0]"])

	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.h"), []byte("#include \"c.h\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.h"), []byte("#include \"b.h\"\n"), 0o644))
	_, err = Parse(filepath.Join(dir, "cyc.litmus"), []byte("C cyc\n#include \"b.h\"\n{ int x; }\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"))
	require.Error(t, err)
	require.Contains(t, err.Error(), "#include cycle")

	// An included file is bounded as a test is: /dev/zero is refused at
	// its #include line, not read until the memory runs out.
	if _, err := os.Stat("/dev/zero"); err == nil {
		rel, err := filepath.Rel(dir, "/dev/zero")
		require.NoError(t, err)
		_, err = Parse(filepath.Join(dir, "zero.litmus"), []byte("C zero\n#include \""+rel+"\"\n{ int x; }\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"))
		require.Error(t, err)
		require.Contains(t, err.Error(), "zero.litmus:2:2: #include: ")
		require.Contains(t, err.Error(), "more than 8 MiB; litmus reads tests up to 8 MiB")
	}
}

// TestCodeTryCmpxchg checks try_cmpxchg's lowering, the kernel's generic
// fallback: the expected value read once, cmpxchg of the same ordering,
// old written only on failure, the value r == o; &old reaches it through
// a helper's parameter.
func TestCodeTryCmpxchg(t *testing.T) {
	src := "C t\nstatic bool claim(atomic_t *v, int *old) { return atomic_try_cmpxchg_release(v, old, *old + 1); }\n{ atomic_t v; }\nP0(atomic_t *v)\n{\n\tint old = atomic_read(v);\n\tbool ok = claim(v, &old);\n}\nexists (0:ok=0)\n"
	test, err := Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	out := string(Format(test))
	require.Contains(t, out, "\told = atomic_read(v);\n\tt = old + 1;\n\tt_1 = old;\n\tt_2 = atomic_cmpxchg_release(v, t_1, t);\n\tif (t_2 != t_1) {\n\t\told = t_2;\n\t}\n\tclaim_ret = t_2 == t_1;\n\tok = claim_ret;\n", out)
	plain := "C t\n{}\nP0(atomic_t *v)\n{\n\tint old = 0;\n\tint ok = atomic_try_cmpxchg(v, &old, 1);\n}\nexists (0:ok=1)\n"
	_, err = Parse("t.litmus", []byte(plain))
	require.EqualError(t, err, "t.litmus:6:11: unknown function atomic_try_cmpxchg: herd's C has none; code tests (with a prelude) have it, or use cmpxchg")
}

// TestCodeCondLoad checks smp_cond_load_acquire's lowering: the kernel's
// generic loop, VAL bound to the value read, the value of the call VAL.
func TestCodeCondLoad(t *testing.T) {
	src := "C t\nstruct s { int ready; };\n{ struct s s; }\nP0(struct s *s)\n{\n\tint r = smp_cond_load_acquire(&s->ready, VAL == 2 || VAL == 3);\n}\nexists (0:r=2)\n"
	test, err := Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	out := string(Format(test))
	require.Contains(t, out, "\tdo {\n\t\tt = smp_load_acquire(s__ready);\n\t} while (!(t == 2 || t == 3));\n\tr = t;\n", out)
	_, err = Parse("t.litmus", []byte("C t\nstruct s { int ready; };\n{ struct s s; }\nP0(struct s *s)\n{\n\tint r = smp_cond_load_relaxed(&s->ready);\n}\nexists (0:r=2)\n"))
	require.EqualError(t, err, "t.litmus:6:10: wrong number of arguments to smp_cond_load_relaxed: have 1, want 2")
}

// TestCodeSwitchGoto checks the lowering of a switch into ifs on its tag
// (fall-through copies the next label's statements, a break jumps to the
// end) and the errors of goto and switch. model/code_test.go checks the
// values they compute under every model.
func TestCodeSwitchGoto(t *testing.T) {
	body := "{ int x; }\nP0(int *x)\n{\n\tint r = 0;\n\n\tswitch (READ_ONCE(*x)) {\n\tcase 1:\n\t\tr = 1;\n\tcase 2:\n\t\tr += 2;\n\t\tbreak;\n\tdefault:\n\t\tr = 9;\n\t}\n\tWRITE_ONCE(*x, r);\n}\nexists (x=0)\n"
	_, err := Parse("t.litmus", []byte("C t\n"+body))
	require.ErrorContains(t, err, "t.litmus:7:2: switch is kernel C that herd's C does not have: a code test (a test with a prelude) may use it")
	test, err := Parse("t.litmus", []byte("C t\nstruct s { int a; };\n"+body))
	require.NoError(t, err)
	require.Contains(t, string(Format(test)), "\tt = READ_ONCE(*x);\n\tif (t == 1) {\n\t\tr = 1;\n\t\tr += 2;\n\t\tWRITE_ONCE(*x, r);\n\t} else {\n\t\tif (t == 2) {\n\t\t\tr += 2;\n\t\t\tWRITE_ONCE(*x, r);\n\t\t} else {\n\t\t\tr = 9;\n\t\t\tWRITE_ONCE(*x, r);\n\t\t}\n\t}\n")
	for _, c := range []struct{ body, want string }{
		{"again:\n\tWRITE_ONCE(*x, 1);\n\tgoto again;", "t.litmus:8:2: goto again: only a forward goto to a label of an enclosing block of the same function is supported in a code test"},
		{"goto nowhere;", "t.litmus:6:2: goto nowhere: only a forward goto"},
		{"while (READ_ONCE(*x)) {\n\t\tgoto out;\n\t}\nout:\n\tWRITE_ONCE(*x, 2);", "t.litmus:6:2: return or goto out of a loop is not supported in a code test"},
		{"case 1: WRITE_ONCE(*x, 1);", "t.litmus:6:2: case label outside a switch"},
		{"switch (READ_ONCE(*x)) {\n\tWRITE_ONCE(*x, 1);\n\t}", "t.litmus:7:2: statement before the first case label of a switch"},
		{"int n = sizeof(struct nope);", "t.litmus:6:17: unknown type struct nope"},
	} {
		_, err := Parse("t.litmus", []byte("C t\nstruct s { int a; };\n{ int x; }\nP0(int *x)\n{\n\t"+c.body+"\n}\nexists (x=0)\n"))
		require.Error(t, err, c.body)
		require.Contains(t, err.Error(), c.want)
	}
}

// TestCodeCountedFor checks which for loops are written out: a counted
// one (each iteration reads its own fixed slot), and not one whose bound
// is read from memory or whose counter the body assigns.
func TestCodeCountedFor(t *testing.T) {
	head := "C t\nstruct r { int s[3]; int n; };\n{ struct r r; }\nP0(struct r *r)\n{\n\tint i, x = 0;\n\n\t"
	tail := "\n}\nexists (0:x=0)\n"
	test, err := Parse("t.litmus", []byte(head+"for (i = 0; i < 3; i++)\n\t\tx += READ_ONCE(r->s[i]);"+tail))
	require.NoError(t, err)
	require.Contains(t, string(Format(test)), "\tx = 0;\n\tx += READ_ONCE(*r__s_0);\n\tx += READ_ONCE(*r__s_1);\n\tx += READ_ONCE(*r__s_2);\n\ti = 3;\n")
	for _, loop := range []string{
		"for (i = 0; i < READ_ONCE(r->n); i++)\n\t\tx++;",
		"for (i = 0; i < 3; i++)\n\t\ti += x;",
		"for (i = 0; i != 3; i += 2)\n\t\tx++;", // never ends: 0, 2, 4, ...
	} {
		test, err := Parse("t.litmus", []byte(head+loop+tail))
		require.NoError(t, err, loop)
		require.Contains(t, string(Format(test)), "for (", loop)
	}
}

// TestCodeAliases checks that the kernel's variants of primitives lower
// to the primitive with its ordering.
func TestCodeAliases(t *testing.T) {
	src := "C t\nstruct p { spinlock_t lock; atomic64_t n; int *ptr; int x; };\n{ struct p p; }\nP0(struct p *p)\n{\n\tunsigned long flags;\n\tint *q;\n\n\tspin_lock_irqsave(&p->lock, flags);\n\tatomic64_inc(&p->n);\n\tspin_unlock_irqrestore(&p->lock, flags);\n\tq = rcu_dereference_check(p->ptr, 1);\n\tlocal_irq_save(flags);\n\tRCU_INIT_POINTER(p->ptr, 0);\n}\nexists (p.x=0)\n"
	test, err := Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	require.Contains(t, string(Format(test)), "\tspin_lock(p__lock);\n\tatomic_long_inc(p__n);\n\tspin_unlock(p__lock);\n\tq = rcu_dereference(*p__ptr);\n\tbarrier();\n\tWRITE_ONCE(*p__ptr, 0);\n")
	_, err = Parse("t.litmus", []byte(strings.Replace(src, "spin_lock_irqsave(&p->lock, flags)", "spin_lock_irqsave(&p->lock)", 1)))
	require.ErrorContains(t, err, "wrong number of arguments to spin_lock_irqsave: have 1, want 2")

	// WARN_ON(c) is c; a bare return ends a thread; BUG_ON is refused.
	warn := "C t\nstruct s { int a; };\n{ struct s s; }\nP0(struct s *s)\n{\n\tif (WARN_ON(READ_ONCE(s->a) == 2))\n\t\treturn;\n\tWRITE_ONCE(s->a, 1);\n}\nexists (s.a=0)\n"
	test, err = Parse("t.litmus", []byte(warn))
	require.NoError(t, err)
	require.Contains(t, string(Format(test)), "\tif (READ_ONCE(*s__a) == 2) {\n\t} else {\n\t\tWRITE_ONCE(*s__a, 1);\n\t}\n")
	_, err = Parse("t.litmus", []byte(strings.Replace(warn, "\t\treturn;", "\t\tBUG_ON(1);", 1)))
	require.EqualError(t, err, "t.litmus:7:3: BUG_ON: a code test states what must not happen in its final section (exists, or an invariant: docs/language.md), not with BUG_ON")
	_, err = Parse("t.litmus", []byte(strings.Replace(warn, "\t\treturn;", "\t\treturn 1;", 1)))
	require.EqualError(t, err, "t.litmus:7:3: a thread returns no value (return; ends it)")
}

// TestCodeEarlyReturn checks that the statements after an early return
// land under the branch that does not return.
func TestCodeEarlyReturn(t *testing.T) {
	src := "C r\nstatic int f(int *x)\n{\n\tint v = READ_ONCE(*x);\n\n\tif (!v)\n\t\treturn 0;\n\tWRITE_ONCE(*x, 2);\n\treturn v + 1;\n}\n{ int x; }\nP0(int *x)\n{\n\tint r = f(x);\n}\nexists (0:r=0)\n"
	test, err := Parse("r.litmus", []byte(src))
	require.NoError(t, err)
	out := string(Format(test))
	require.Contains(t, out, "if (!f_v) {\n\t\tf_ret = 0;\n\t} else {\n\t\tWRITE_ONCE(*x, 2);\n\t\tf_ret = f_v + 1;\n\t}")
}
