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

// TestErrorsQuoteInputReadably: a non-ASCII character is named with its
// code point (it used to print as the first byte of its encoding: 'ξ' as
// 'Î', a zero-width space as 'â'), an invalid byte as a byte, and binary
// junk is quoted in at most a few dozen bytes.
func TestErrorsQuoteInputReadably(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"C t\n{}\nP0(int *x) { r0 = ξ; }", "t.litmus:3:19: illegal character 'ξ' (U+03BE)"},
		{"C t\n{}\nP0(int *x) { r0 = \u200b1; }", `t.litmus:3:19: illegal character '\u200b' (U+200B)`},
		{"C t\n{}\nP0(int *x) { r0 = \x01; }", `t.litmus:3:19: illegal character '\x01' (U+0001)`},
		{"C t\n{}\nP0(int *x) { r0 = \xff; }", "t.litmus:3:19: illegal byte 0xFF (not UTF-8)"},
		{"C\xfe" + strings.Repeat("\x80junk", 100) + "\n", `t.litmus:1:1: unsupported architecture "C\xfe\x80junk\x80junk\x80junk\x80junk\x80junk\x80jun"... (want C, X86, X86_64, AArch64, RISCV, PPC or LISA)`},
		{"C t\n{}\nP0(int *x) { " + strings.Repeat("a", 300) + " b; }", "t.litmus:3:315: expected ;, found 'b'"},
		{"C t\n{}\nP0(int *x) { r0 = 1 " + strings.Repeat("a", 300) + "; }", `t.litmus:3:21: expected ;, found "` + strings.Repeat("a", 32) + `"...`},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		require.Error(t, err, "%q", tc.src)
		list := err.(ErrorList)
		require.Equal(t, tc.want, list[0].Error(), "%q", tc.src)
		for _, e := range list {
			require.LessOrEqual(t, len(e.Msg), maxMessage+3, "%q", e.Msg)
		}
	}
}
