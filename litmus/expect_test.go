package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExpectations(t *testing.T) {
	for _, tc := range []struct {
		comments string
		want     map[string]string
	}{
		{"(* nothing *)", map[string]string{}},
		{"(*\n * Result: Never\n *\n * text\n *)", map[string]string{"LKMM": "Never"}},
		{"(* Result: Sometimes *)", map[string]string{"LKMM": "Sometimes"}},
		{"(*\n * Result: Never\n * Result-TSO: Sometimes\n * Result-sc: Never\n * Result-PSO: Always\n *)",
			map[string]string{"LKMM": "Never", "TSO": "Sometimes", "SC": "Never", "PSO": "Always"}},
		{"(* Result-LKMM: Never *)\n(* Result: Sometimes *)", map[string]string{"LKMM": "Never"}},
		{"(* Result-aarch64-llsc: Never *)\n(* Result-ARM64: Sometimes *)", map[string]string{"AARCH64-LLSC": "Never", "ARM64": "Sometimes"}},
		{"(* The Result: field is not at the start of a line *)", map[string]string{}},
		{"(* Result: DEADLOCK *)", map[string]string{"LKMM": "DEADLOCK"}},
		// Forms of the public collections: the first word after "Result:"
		// is the expectation; what follows it (the kernel's DATARACE
		// marker, a flag name) is the caller's to read from the comment.
		{"(*\n * Result: Never DATARACE\n *)", map[string]string{"LKMM": "Never"}},
		{"(*\n * Result: Maybe\n * P0 GRR: Never->Maybe: why\n *)", map[string]string{"LKMM": "Maybe"}},
		{"(*\n * Result: Flag srcu-bad-nesting\n *)", map[string]string{"LKMM": "Flag"}},
		// Any case; the verdict in its canonical spelling (issue #26).
		{"(* result-tso: never *)\n(* RESULT: deadlock *)", map[string]string{"TSO": "Never", "LKMM": "DEADLOCK"}},
		{"(* Result: Nevr *)", map[string]string{"LKMM": "Nevr"}},
		// Prose is not an expectation.
		{"(* Expected result: Never. *)", map[string]string{}},
	} {
		src := "C t\n" + tc.comments + "\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n"
		tst, err := Parse("t.litmus", []byte(src))
		require.NoError(t, err, src)
		require.Equal(t, tc.want, tst.Expectations(), "comments %q", tc.comments)
	}
}

// TestCorpusExpectations checks that every kernel test with a Result:
// line yields its verdict.
func TestCorpusExpectations(t *testing.T) {
	n := 0
	for _, f := range corpusFiles(t, "lkmm") {
		tst, err := ParseFile(f)
		require.NoError(t, err)
		src := string(Format(tst))
		if !strings.Contains(src, "Result:") {
			continue
		}
		n++
		got := tst.Expectations()["LKMM"]
		require.Contains(t, []string{"Never", "Sometimes", "Always", "DEADLOCK"}, got, f)
		require.Contains(t, src, "Result: "+got, f)
	}
	t.Logf("%d corpus tests carry a Result: line", n)
	require.Positive(t, n)
}
