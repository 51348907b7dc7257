package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// herdRepo is the mirror of herdtools7's repository (a bare git
// repository) whose herd/libdir holds herd's current library; the
// environment variable HERDTOOLS7_REPO names another.
const herdRepo = "/work/.mirror/herd+herdtools7/repo"

// herdLibdir extracts herd/libdir from the herdtools7 mirror into a
// temporary directory and returns it, or skips the test when the mirror
// or git is absent. herd's files are read from there at test time, never
// copied into this repository.
func herdLibdir(t *testing.T) string {
	repo := os.Getenv("HERDTOOLS7_REPO")
	if repo == "" {
		repo = herdRepo
	}
	if _, err := os.Stat(repo); err != nil {
		t.Skip("no herdtools7 mirror at " + repo)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git to read the herdtools7 mirror")
	}
	dir := t.TempDir()
	archive := exec.Command("git", "--git-dir", repo, "archive", "HEAD", "herd/libdir")
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	require.NoError(t, err)
	untar.Stdin = pipe
	require.NoError(t, untar.Start())
	require.NoError(t, archive.Run())
	require.NoError(t, untar.Wait())
	return filepath.Join(dir, "herd", "libdir")
}

// knownCatDiff lists the corpus tests on which herd's own model file,
// through --cat, still answers otherwise than herd7, with the reason
// (docs/cat.md repeats them). The test fails when one of them starts to
// agree (remove it) as well as when any other test disagrees.
var knownCatDiff = map[string]string{}

// herdCatRun is one herd model file run through --cat over corpus
// folders, against herd7's outputs in expected/<expected>.
type herdCatRun struct {
	name     string
	cat      func(t *testing.T) []string // the --cat and -I arguments
	expected string
	dirs     []string
	counts   bool // compare herd's P N counts too
}

func corpusCat(rel string) func(*testing.T) []string {
	return func(*testing.T) []string { return []string{"--cat", filepath.Join(corpus, rel)} }
}

var herdCatRuns = []herdCatRun{
	{"sc", func(t *testing.T) []string {
		lib := herdLibdir(t)
		return []string{"--cat", filepath.Join(lib, "sc.cat"), "-I", lib}
	}, "sc", cDirs, false},
	{"x86tso", corpusCat("x86/herd/libdir/x86tso.cat"), "x86tso", []string{"x86/catalogue/x86/tests"}, false},
	{"x86tso-mixed", corpusCat("x86/herd/libdir/x86tso-mixed.cat"), "x86tso", []string{"x86/catalogue/x86_64/tests", "x86/herd/tests/instructions/X86_64"}, false},
	{"riscv", corpusCat("arch/riscv/herd/libdir/riscv.cat"), "riscv", []string{"arch/riscv"}, false},
	{"ppc", corpusCat("arch/ppc/herd/libdir/ppc.cat"), "ppc", []string{"arch/ppc"}, false},
	{"aarch64", corpusCat("arch/aarch64/herd/libdir/aarch64.cat"), "aarch64", []string{"arch/aarch64"}, false},
	{"linux-kernel", corpusCat("lkmm/tools/memory-model/linux-kernel.cfg"), "lkmm", cDirs, true},
}

// TestHerdCatFiles runs herd's stock model files — sc.cat from herd's
// current library, x86tso.cat and x86tso-mixed.cat, and herd 7.58's
// riscv.cat, ppc.cat and aarch64.cat, the kernel's linux-kernel.cfg —
// through --cat on every test of the shared corpus that herd7 answered
// under them, and compares the output with herd7's: the Test line, the
// final states, Ok/No, the flags, the condition and the verdict (and the
// counts for the kernel's model, whose candidates are herd's).
func TestHerdCatFiles(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("shared corpus not present")
	}
	for _, r := range herdCatRuns {
		t.Run(r.name, func(t *testing.T) {
			args := r.cat(t)
			var files []string
			for _, d := range r.dirs {
				filepath.Walk(filepath.Join(corpus, d), func(p string, info os.FileInfo, err error) error {
					if err == nil && strings.HasSuffix(p, ".litmus") {
						files = append(files, p)
					}
					return nil
				})
			}
			sort.Strings(files)
			compared := 0
			for _, f := range files {
				rel, _ := filepath.Rel(corpus, f)
				want, err := os.ReadFile(filepath.Join(corpus, "expected", r.expected, rel+".out"))
				if err != nil {
					continue // herd gave no answer (an .err file), or not under this model
				}
				compared++
				flags := append([]string{"check", "--time=false"}, args...)
				if herdFreshZero[rel] {
					flags = append(flags, "--fresh-zero") // herd's reading of a register only the condition names
				}
				out, errOut, code := run(t, append(flags, f)...)
				agree := code != exitUsage && strings.Join(herdLines(string(want), r.counts), "\n") == strings.Join(herdLines(out, r.counts), "\n")
				if why, known := knownCatDiff[r.name+" "+rel]; known {
					require.False(t, agree, "%s now agrees with herd (%s): remove it from knownCatDiff", rel, why)
					continue
				}
				if !agree {
					t.Errorf("%s: exit %d %s\n%s", rel, code, errOut, lineDiff(strings.Join(herdLines(string(want), r.counts), "\n"), strings.Join(herdLines(out, r.counts), "\n")))
				}
			}
			t.Logf("%d tests compared with herd7 under %s", compared, r.name)
			require.NotZero(t, compared)
		})
	}
}
