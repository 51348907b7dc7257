package litmus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lisaCollectionEnv names a directory of LISA tests from outside the
// project, such as the 174 LISA files of Paul McKenney's litmus
// repository (github.com/paulmckrcu/litmus, manual/): the tests that use
// it skip when it is unset. To populate one from a clone:
//
//	git grep -l '^LISA' -- '*.litmus' | xargs tar cf - | tar xf - -C DIR
const lisaCollectionEnv = "LITMUS_LISA_TESTS"

// lisaCollection returns the LISA tests under $LITMUS_LISA_TESTS, or
// skips t.
func lisaCollection(t *testing.T) []string {
	t.Helper()
	dir := os.Getenv(lisaCollectionEnv)
	if dir == "" {
		t.Skipf("%s not set: no LISA collection to read", lisaCollectionEnv)
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".litmus") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.HasPrefix(strings.TrimSpace(string(src)), "LISA") {
				files = append(files, path)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files, "no LISA tests under %s", dir)
	return files
}

// TestLISACollection parses every LISA test of the collection and checks
// that each survives a round trip through the printer. The failures are
// logged and counted, not hidden: the count is the number to compare.
func TestLISACollection(t *testing.T) {
	files := lisaCollection(t)
	ok := 0
	for _, f := range files {
		tst, err := ParseFile(f)
		if err != nil {
			t.Logf("does not parse: %v", err)
			continue
		}
		require.Equal(t, ArchLISA, tst.Arch)
		requireRoundTrip(t, f, tst)
		ok++
	}
	t.Logf("parsed %d of %d LISA tests", ok, len(files))
}
