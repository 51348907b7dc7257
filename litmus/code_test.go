package litmus

import (
	"os"
	"path/filepath"
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

// TestCodeEarlyReturn checks that the statements after an early return
// land under the branch that does not return.
func TestCodeEarlyReturn(t *testing.T) {
	src := "C r\nstatic int f(int *x)\n{\n\tint v = READ_ONCE(*x);\n\n\tif (!v)\n\t\treturn 0;\n\tWRITE_ONCE(*x, 2);\n\treturn v + 1;\n}\n{ int x; }\nP0(int *x)\n{\n\tint r = f(x);\n}\nexists (0:r=0)\n"
	test, err := Parse("r.litmus", []byte(src))
	require.NoError(t, err)
	out := string(Format(test))
	require.Contains(t, out, "if (!f_v) {\n\t\tf_ret = 0;\n\t} else {\n\t\tWRITE_ONCE(*x, 2);\n\t\tf_ret = f_v + 1;\n\t}")
}
