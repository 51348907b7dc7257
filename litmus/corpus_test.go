package litmus

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/stretchr/testify/require"
)

// corpusDir is the shared conformance corpus, relative to this package.
var corpusDir = shared.Corpus()

// corpusFiles returns the litmus tests under corpusDir/sub, sorted, or
// skips t when the corpus is absent.
func corpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	root := shared.CorpusDir(t, sub)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".litmus") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	sort.Strings(files)
	return files
}

// TestCorpusParses parses every test of the shared corpus.
func TestCorpusParses(t *testing.T) {
	for _, sub := range []struct {
		dir  string
		want int
	}{{"lkmm", 126}, {"x86", 64}, {"arch/aarch64", 230}, {"arch/riscv", 150}, {"arch/ppc", 150}} {
		t.Run(sub.dir, func(t *testing.T) {
			files := corpusFiles(t, sub.dir)
			ok := 0
			for _, f := range files {
				tst, err := ParseFile(f)
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				require.NotNil(t, tst)
				ok++
			}
			t.Logf("%s: parsed %d of %d files", sub.dir, ok, len(files))
			require.Equal(t, sub.want, len(files), "corpus size changed")
		})
	}
}
