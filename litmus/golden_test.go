package litmus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoldenPrint prints each testdata/parse/X.litmus and compares the
// text with X.litmus.golden (our printer's output; .expected and .out
// files hold herd7's answers); -update rewrites the golden files.
func TestGoldenPrint(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tst, err := ParseFile(f)
			require.NoError(t, err)
			got := Format(tst)
			golden := f + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "missing golden file; run go test ./litmus -run TestGoldenPrint -update")
			require.Equal(t, string(want), string(got), "printed text differs from %s", golden)
			requireRoundTrip(t, f, tst)
		})
	}
}
