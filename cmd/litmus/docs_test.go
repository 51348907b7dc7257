package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/stretchr/testify/require"
)

// The documentation shows real output. A block written as
//
//	<!-- litmus check testdata/nospace.litmus -->
//	```
//	...output...
//	```
//
// is the output of that command run from the repository root (with its
// standard error after the output when the command ends in "2>&1"); this test
// re-runs every such command and fails when a block is stale (-update
// rewrites them). The seconds on herd's Time lines and in JSON's
// elapsed_s, the only parts of the output that vary between runs, are not
// compared. A command that names a path under ../shared/ (the shared
// corpus, beside the repository and not part of it) is skipped when that
// path does not exist.

var docCmdRE = regexp.MustCompile("(?m)^<!-- (litmus [^\n]*?) -->\n```[a-z]*\n((?:.*\n)*?)```\n")

func TestDocsOutputIsReal(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	seeds, _ := filepath.Glob("../../docs/seeds/*.md")
	docs = append(append(docs, seeds...), "../../README.md")
	wd, err := os.Getwd()
	require.NoError(t, err)
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		require.NoError(t, err)
		text := string(src)
		if !docCmdRE.MatchString(text) {
			continue
		}
		t.Run(filepath.Base(doc), func(t *testing.T) {
			var failed bool
			out := docCmdRE.ReplaceAllStringFunc(text, func(block string) string {
				m := docCmdRE.FindStringSubmatch(block)
				args := strings.Fields(m[1])[1:]
				withStderr := len(args) > 0 && args[len(args)-1] == "2>&1"
				if withStderr {
					args = args[:len(args)-1]
				}
				if p := missingShared(args); p != "" {
					// The shared corpus is not part of the repository:
					// without it the block cannot be re-run, and stays as
					// it is.
					t.Logf("%s: skipping %q: %s does not exist", doc, m[1], p)
					return block
				}
				require.NoError(t, os.Chdir("../.."))
				stdout, stderr, _ := run(t, args...)
				require.NoError(t, os.Chdir(wd))
				got := stdout
				if withStderr {
					got += stderr
				}
				if maskTime(got) != maskTime(m[2]) {
					failed = true
					if !*update {
						t.Errorf("%s: output of %q is stale (-want +got):\n%s", doc, m[1], lineDiff(m[2], got))
					}
				}
				return "<!-- " + m[1] + " -->\n```\n" + got + "```\n"
			})
			if *update && failed {
				require.NoError(t, os.WriteFile(doc, []byte(out), 0o644))
			}
		})
	}
}

// missingShared returns the first path under ../shared/ (the shared
// corpus beside the repository) that args name and that does not exist,
// or "".
func missingShared(args []string) string {
	for _, a := range args {
		i := strings.Index(a, "../shared/")
		if i < 0 {
			continue
		}
		p := a[i:]
		if _, err := os.Stat(filepath.Join("../..", p)); err != nil {
			return p
		}
	}
	return ""
}

// TestMissingShared: a block is skipped only for a ../shared/ path that
// is not there, whichever way the flag is written.
func TestMissingShared(t *testing.T) {
	require.Equal(t, "", missingShared([]string{"check", "testdata/nospace.litmus"}))
	require.Equal(t, "../shared/no-such-dir", missingShared([]string{"check", "--model-dir", "../shared/no-such-dir", "x.litmus"}))
	require.Equal(t, "../shared/no-such.cat", missingShared([]string{"check", "--cat=../shared/no-such.cat", "x.litmus"}))
	if _, err := os.Stat(shared.Corpus()); err == nil {
		require.Equal(t, "", missingShared([]string{"check", "../shared/corpus"}))
	}
}

var (
	timeRE    = regexp.MustCompile(`(?m)^(Time \S+) \d+\.\d+$`)
	elapsedRE = regexp.MustCompile(`"elapsed_s":[0-9.e-]+`)
)

// maskTime hides the seconds of herd's Time lines and of JSON's
// elapsed_s, the only parts of the output that vary between runs.
func maskTime(s string) string {
	return elapsedRE.ReplaceAllString(timeRE.ReplaceAllString(s, "$1 S"), `"elapsed_s":S`)
}

// TestLicence: the repository says under which licence it is
// distributed, with the full text and a notice naming what it derives
// from.
func TestLicence(t *testing.T) {
	lic, err := os.ReadFile("../../LICENSE")
	require.NoError(t, err, "the repository needs a LICENSE")
	require.Contains(t, string(lic), "GNU GENERAL PUBLIC LICENSE")
	require.Contains(t, string(lic), "Version 2, June 1991")
	notice, err := os.ReadFile("../../NOTICE")
	require.NoError(t, err, "the repository needs a NOTICE")
	for _, src := range []string{"linux-kernel.cat", "linux-kernel.bell", "lock.cat", "linux-kernel.def", "herdtools7", "CeCILL-B"} {
		require.Contains(t, string(notice), src, "NOTICE must say what is derived from %s", src)
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	require.Contains(t, string(readme), "## Licence")
	require.Contains(t, string(readme), "GPL-2.0-or-later")
}

// TestBundledTestsAreCanonical: the tests shipped in testdata/,
// docs/examples/ and docs/examples/arch/ are in 'litmus fmt' form, so that fmt -l on them is
// silent and they show the layout fmt writes.
func TestBundledTestsAreCanonical(t *testing.T) {
	files, err := filepath.Glob("../../testdata/*.litmus")
	require.NoError(t, err)
	examples, err := filepath.Glob("../../docs/examples/*.litmus")
	require.NoError(t, err)
	archExamples, err := filepath.Glob("../../docs/examples/arch/*/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, archExamples)
	files = append(append(files, examples...), archExamples...)
	modelTests, err := filepath.Glob("../../docs/examples/models/tests/*.litmus")
	require.NoError(t, err)
	files = append(files, modelTests...)
	require.NotEmpty(t, examples)
	for _, f := range files {
		out, errOut, code := run(t, "fmt", "-l", f)
		require.Equal(t, exitOK, code, errOut)
		require.Empty(t, out, "%s is not in canonical form; run litmus fmt -w %s", f, f)
	}
}
