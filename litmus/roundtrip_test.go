package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// requireRoundTrip checks that printing t and parsing the result gives
// the same tree (ignoring positions), and that printing is idempotent.
func requireRoundTrip(t *testing.T, name string, tst *Test) {
	t.Helper()
	out := Format(tst)
	again, err := Parse(name, out)
	require.NoError(t, err, "printed text does not parse:\n%s", out)
	require.Equal(t, dump(tst), dump(again), "print/parse changed the tree; printed text:\n%s", out)
	require.Equal(t, string(out), string(Format(again)), "printing is not idempotent")
}

// TestCorpusRoundTrip checks parse(print(parse(f))) = parse(f) for every
// corpus file.
func TestCorpusRoundTrip(t *testing.T) {
	for _, sub := range []string{"lkmm", "x86", "arch"} {
		for _, f := range corpusFiles(t, sub) {
			tst, err := ParseFile(f)
			require.NoError(t, err)
			t.Run(f[len(corpusDir)+1:], func(t *testing.T) {
				requireRoundTrip(t, f, tst)
			})
		}
	}
}
