// Package shared finds the shared conformance corpus for the tests that
// read it: real litmus tests with herd7's answers, kept beside the
// repository (../shared/corpus from the module root), never in it.
package shared

import (
	"os"
	"path/filepath"
	"testing"
)

// Corpus returns the shared corpus's directory, relative to the current
// directory (a package's, under go test): ../shared/corpus from the
// module root, found by the go.mod above. It is the path whether or not
// the corpus is there; CorpusDir skips a test when it is not.
func Corpus() string {
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "corpus")
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			root = wd // no module above: the corpus beside the current directory
			break
		}
		root = up
	}
	rel, err := filepath.Rel(wd, filepath.Join(root, "..", "shared", "corpus"))
	if err != nil {
		return filepath.Join(root, "..", "shared", "corpus")
	}
	return rel
}

// CorpusDir returns the path of elem joined under the shared corpus, or
// skips t, saying what is missing, when that path is absent.
func CorpusDir(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Corpus()}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no shared corpus at %s (see the shared corpus's README: it is kept beside the repository)", p)
	}
	return p
}
