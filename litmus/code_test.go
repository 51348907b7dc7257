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

// TestCodeEarlyReturn checks that the statements after an early return
// land under the branch that does not return.
func TestCodeEarlyReturn(t *testing.T) {
	src := "C r\nstatic int f(int *x)\n{\n\tint v = READ_ONCE(*x);\n\n\tif (!v)\n\t\treturn 0;\n\tWRITE_ONCE(*x, 2);\n\treturn v + 1;\n}\n{ int x; }\nP0(int *x)\n{\n\tint r = f(x);\n}\nexists (0:r=0)\n"
	test, err := Parse("r.litmus", []byte(src))
	require.NoError(t, err)
	out := string(Format(test))
	require.Contains(t, out, "if (!f_v) {\n\t\tf_ret = 0;\n\t} else {\n\t\tWRITE_ONCE(*x, 2);\n\t\tf_ret = f_v + 1;\n\t}")
}
