package litmus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// printed parses src and returns the printer's text for it.
func printed(t *testing.T, name, src string) string {
	t.Helper()
	tst, err := Parse(name, []byte(src))
	require.NoError(t, err, "parsing %s", name)
	var b bytes.Buffer
	require.NoError(t, Fprint(&b, tst))
	return b.String()
}

// TestOldX86Syntax checks the spellings of herd's older X86 tests (a TeX
// name after the test name, "};" closing the init block, "P1:EAX",
// "final" with per-model kinds, a trailer after "<<"): each must parse to
// the same test as its modern spelling.
func TestOldX86Syntax(t *testing.T) {
	modern := `X86 t
{ x=0; y=0; 1:EBX=0; }
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
exists (1:EAX=1 /\ 1:EBX=0)
`
	for name, src := range map[string]string{
		"final": `X86 t (tee) "";
{x = 0; y = 0; P1:EBX = 0};

 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;

final (P1:EAX = 1 /\ P1:EBX = 0);
with
tso: ~exists;
cc: exists;

<<
show 0 of ess 0
readfrom rf.dot
>>
`,
		"paren": `X86 t ;
Some_key/x=herd allows '_' and '/' in keys
{x=0; y=0; 1:EBX=0}
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
locations [x;]
(1:EAX=1 /\ P1:EBX=0)
`,
	} {
		want := modern
		if name == "paren" {
			// herd's splitter needs a keyword to start the condition, so a
			// bare "(P)" only follows "locations [...]".
			want = strings.Replace(modern, "exists", "locations [x;]\nexists", 1)
			want = strings.Replace(want, "X86 t\n", "X86 t\nSome_key/x=herd allows '_' and '/' in keys\n", 1)
		}
		require.Equal(t, printed(t, "modern.litmus", want), printed(t, name+".litmus", src), name)
	}
}

// TestOldX86SyntaxStaysStrict keeps the old spellings out of C tests and
// keeps malformed ones errors. (A TeX name after a C test's name, "C t
// (tee)", is text before the init block, which herd's splitter skips, and
// so is accepted.)
func TestOldX86SyntaxStaysStrict(t *testing.T) {
	for name, src := range map[string]string{
		"C final":   "C t\n{}\nP0(int *x)\n{\n}\nfinal (x=1)\n",
		"bad kind":  "X86 t\n{}\n P0 ;\n MFENCE ;\nfinal (x=1); with tso: maybe;\n",
		"no kind":   "X86 t\n{}\n P0 ;\n MFENCE ;\nfinal (x=1); with\n",
		"two semis": "X86 t\n{};;\n P0 ;\n MFENCE ;\nexists (x=1)\n",
		"Pfoo":      "X86 t\n{}\n P0 ;\n MOV EAX,[x] ;\nexists (Pfoo:EAX=1)\n",
	} {
		_, err := Parse(name+".litmus", []byte(src))
		require.Error(t, err, name)
	}
}

// TestX86GrammarForms checks operand and prefix forms that herd's X86 and
// X86_64 grammars accept: "(EAX)" for "[EAX]" in Intel syntax, "[x]",
// "[%rbx]" and "8[%rbx]" in AT&T syntax, and "LOCK;" before an
// instruction in the same cell.
func TestX86GrammarForms(t *testing.T) {
	tst, err := Parse("intel.litmus", []byte("X86 t\n{}\n P0 | P1 ;\n MOV EAX,(EBX) | LOCK; INC [x] ;\n MOV ECX,(x) | LOCK ;XCHG [x],EAX ;\nexists (x=1)\n"))
	require.NoError(t, err)
	p0, p1 := tst.Procs[0].Code, tst.Procs[1].Code
	require.Equal(t, OpdMem, p0[0].Args[1].Kind)
	require.Equal(t, "EBX", p0[0].Args[1].Base)
	require.Equal(t, "x", p0[1].Args[1].Sym)
	require.Len(t, p1, 2)
	require.Equal(t, "LOCK", p1[0].Prefix)
	require.Equal(t, "INC", p1[0].Op)
	require.Equal(t, "LOCK", p1[1].Prefix)
	require.Equal(t, "XCHG", p1[1].Op)

	tst, err = Parse("att.litmus", []byte("X86_64 t\n{}\n P0 ;\n movq $1,[x] ;\n movq [%rbx],%rax ;\n movq 8[%rbx],%rcx ;\nexists (x=1)\n"))
	require.NoError(t, err)
	code := tst.Procs[0].Code
	require.Equal(t, "x", code[0].Args[1].Sym)
	require.Equal(t, "rbx", code[1].Args[0].Base)
	require.Equal(t, "rbx", code[2].Args[0].Base)
	require.Equal(t, int64(8), code[2].Args[0].Disp)

	for _, src := range []string{
		"X86 t\n{}\n P0 ;\n MOV EAX,(EBX ;\nexists (x=1)\n",
		"X86_64 t\n{}\n P0 ;\n movq [%rbx,%rax ;\nexists (x=1)\n",
	} {
		_, err := Parse("bad.litmus", []byte(src))
		require.Error(t, err, src)
	}
}
