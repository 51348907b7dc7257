package shared

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCorpusIsBesideTheModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	// This package is internal/shared: the module root is two up.
	want := filepath.Join(wd, "..", "..", "..", "shared", "corpus")
	require.Equal(t, filepath.Clean(want), filepath.Join(wd, Corpus()))
	require.False(t, filepath.IsAbs(Corpus()), "a relative path, as the tests' messages print it")
}

func TestCorpusDirSkipsWhenAbsent(t *testing.T) {
	var skipped bool
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		CorpusDir(t, "no-such-folder-in-the-corpus")
		t.Error("CorpusDir returned a path that does not exist")
	})
	require.True(t, skipped, "CorpusDir must skip the test when the path is absent")
}
