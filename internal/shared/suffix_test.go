package shared

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoldenSuffixes holds the repository's testdata to one meaning per
// suffix: .out and .expected files are herd7's answers, so each folder
// that holds one has a README saying how herd7 made them; .golden files
// are our own printer's output (rewritten by -update), never herd's.
func TestGoldenSuffixes(t *testing.T) {
	root := filepath.Join("..", "..")
	herdDirs := map[string]bool{}
	var golden int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "shared") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.Contains(p, "testdata") {
			return nil
		}
		switch {
		case strings.HasSuffix(p, ".out"), strings.HasSuffix(p, ".expected"):
			herdDirs[filepath.Dir(p)] = true
		case strings.HasSuffix(p, ".golden"):
			golden++
			readme, err := os.ReadFile(filepath.Join(filepath.Dir(p), "README.md"))
			require.False(t, err == nil && strings.Contains(string(readme), "herd7 -"), "%s: a .golden file in a folder of herd7's outputs", p)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, herdDirs, "no herd7 outputs found: the walk is wrong")
	require.NotZero(t, golden, "no golden files found: the walk is wrong")
	for dir := range herdDirs {
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		require.NoError(t, err, "%s holds .out or .expected files (herd7's answers) but no README saying how herd7 made them", dir)
		require.Contains(t, string(readme), "herd7", "%s/README.md does not say the answers are herd7's", dir)
	}
}
