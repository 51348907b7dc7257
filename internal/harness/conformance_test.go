package harness

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kmap"
	"github.com/stretchr/testify/require"
)

// The tests here hold the run to the models: every state a run observes
// must be one the model allows (x86-TSO for X86 tests; for C tests the
// model of the code that ran, x86-TSO over the kernel's x86 mapping or
// aarch64.cat over its arm64 one, and the LKMM, which is weaker than
// both).
// They never assert how often an outcome appears: that depends on the
// machine.

// corpusDir is the shared conformance corpus, relative to this package.
var corpusDir = shared.Corpus()

// litmusFiles returns the .litmus files under dir, sorted; none when dir
// is absent.
func litmusFiles(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".litmus") {
			files = append(files, path)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	sort.Strings(files)
	return files
}

// bundled are the project's own tests plus the ones in testdata/ here.
func bundled(t testing.TB) []string {
	files := litmusFiles(t, "../../testdata")
	files = append(files, litmusFiles(t, "../../docs/examples")...)
	return append(files, litmusFiles(t, "testdata")...)
}

func corpusTests(t testing.TB) []string {
	var files []string
	for _, sub := range []string{"x86", "lkmm"} {
		files = append(files, litmusFiles(t, filepath.Join(corpusDir, sub))...)
	}
	return files
}

// modelsFor returns the models a run of t by code generator arch is held
// to. x86-TSO does not hold arm64 code: a failing LL/SC cmpxchg orders
// nothing, where x86's LOCK CMPXCHG is a full barrier (qemu-aarch64 on an
// x86 host shows it: cmpxchg-fail-unordered-1 reaches the state x86-TSO
// forbids).
func modelsFor(t *litmus.Test, arch string) []model.Model {
	if t.Arch != litmus.ArchC {
		return []model.Model{model.TSO}
	}
	switch kmap.Arch(arch) {
	case kmap.ARM64:
		return []model.Model{model.AArch64, model.LKMM}
	case kmap.ARM64LLSC:
		return []model.Model{model.AArch64LLSC, model.LKMM}
	}
	return []model.Model{model.TSO, model.LKMM}
}

// isUnsupported reports whether err is the run's "not supported" answer.
func isUnsupported(err error) bool {
	return err != nil && strings.Contains(err.Error(), "not supported by run: ")
}

// TestColumnsMatchModel compiles every test and checks that the run's
// columns are the model's, name for name and in order, so that states
// compare as strings.
func TestColumnsMatchModel(t *testing.T) {
	files := append(bundled(t), corpusTests(t)...)
	for _, arch := range []string{string(kmap.X86_64), string(kmap.ARM64)} {
		for _, f := range files {
			tt, err := litmus.ParseFile(f)
			if err != nil {
				continue
			}
			if tt.Arch != litmus.ArchC && arch != string(kmap.X86_64) {
				continue
			}
			p, err := compile(tt, arch, Options{}.withDefaults())
			if err != nil {
				require.True(t, isUnsupported(err) || strings.Contains(err.Error(), "arm64 code generation"), "%s: %s: %v", arch, f, err)
				continue
			}
			res, err := model.Check(context.Background(), tt, model.SC, model.Options{MaxStates: 1, NoWitness: true})
			if err != nil {
				continue
			}
			var locs []string
			for i := 0; i < p.visible; i++ {
				locs = append(locs, p.cols[i].name)
			}
			require.Equal(t, res.Locs, locs, "%s", f)
		}
	}
}

// runAgainstModels runs file and checks its histogram against the models.
// It returns false when the run does not support the test.
func runAgainstModels(t *testing.T, file string, o Options) bool {
	t.Helper()
	tt, err := litmus.ParseFile(file)
	require.NoError(t, err)
	arch, err := HostArch(o.Atomics)
	require.NoError(t, err)
	var results []*model.Result
	for _, m := range modelsFor(tt, arch) {
		r, err := model.Check(context.Background(), tt, m, model.Options{Timeout: 20 * time.Second, NoWitness: true})
		if err != nil {
			t.Logf("%s: %s gives it no meaning: %v", file, m, err)
			return true
		}
		if len(r.Faults) > 0 {
			// litmus run refuses it (cmd/litmus faultFree): the machine
			// would access memory through NULL or a wild pointer.
			t.Logf("%s: not run: %s finds a fault: %s", file, m, r.Faults[0].Reason)
			return false
		}
		results = append(results, r)
	}
	res, err := Run(context.Background(), tt, o)
	if isUnsupported(err) {
		t.Logf("%v", err)
		return false
	}
	require.NoError(t, err, "%s", file)
	require.Equal(t, res.Instances+res.Abandoned+res.Dropped+res.Filtered+res.Lost, o.Iterations, "%s: every instance is accounted for", file)
	for _, mr := range results {
		if mr.States.Len() > 0 { // the LKMM names no columns when no state is allowed
			require.Equal(t, mr.Locs, res.Locs, "%s: columns", file)
		}
		if mr.Verdict == model.Unknown {
			continue
		}
		allowed := map[string]bool{}
		for _, s := range mr.States.All() {
			allowed[s.String()] = true
		}
		for _, s := range res.States {
			st := res.StateString(s)
			require.True(t, allowed[st], "%s: observed %d times %s, which %s forbids (allowed: %v)", file, s.Count, st, mr.Model, mr.States)
		}
	}
	return true
}

// smallRun is the stress of the tests: enough to see the common outcomes,
// quick even when the two CPUs are busy.
func smallRun() Options {
	return Options{Iterations: 2000, Size: 500, LoopBound: 2000}
}

func TestRunBundled(t *testing.T) {
	if !Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	arch, err := HostArch("")
	require.NoError(t, err)
	for _, f := range bundled(t) {
		if arch != string(kmap.X86_64) {
			if tt, err := litmus.ParseFile(f); err == nil && tt.Arch != litmus.ArchC {
				continue
			}
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			runAgainstModels(t, f, smallRun())
		})
	}
}

// TestRunCorpus runs every X86 and kernel C test of the shared corpus.
func TestRunCorpus(t *testing.T) {
	if !Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	files := corpusTests(t)
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	if testing.Short() {
		files = files[:0:0]
		for _, f := range corpusTests(t) {
			if strings.Contains(f, "/x86/catalogue/") {
				files = append(files, f)
			}
		}
	}
	arch, err := HostArch("")
	require.NoError(t, err)
	var unsupported []string
	for _, f := range files {
		name := strings.TrimPrefix(f, corpusDir+"/")
		if strings.HasPrefix(name, "x86/") && arch != string(kmap.X86_64) {
			continue // X86 tests run on x86-64 only
		}
		t.Run(name, func(t *testing.T) {
			if !runAgainstModels(t, f, smallRun()) {
				unsupported = append(unsupported, name)
			}
		})
	}
	t.Logf("%d of %d tests not supported by run: %v", len(unsupported), len(files), unsupported)
	for _, u := range unsupported {
		// Only kernel tests may be out of reach (RCU and SRCU grace
		// periods); every X86 test must run.
		require.False(t, strings.HasPrefix(u, "x86/"), "X86 test %s does not run", u)
	}
}

func TestUnsupportedIsClear(t *testing.T) {
	src := "C gp\n{}\nP0(int *x) {\n\tsynchronize_rcu();\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"
	tt, err := litmus.Parse("gp.litmus", []byte(src))
	require.NoError(t, err)
	_, err = compile(tt, string(kmap.X86_64), Options{}.withDefaults())
	require.Error(t, err)
	require.True(t, isUnsupported(err), "%v", err)
	require.True(t, strings.HasPrefix(err.Error(), "gp.litmus:4:2: "), "%v", err)
	require.Contains(t, err.Error(), "grace-period")
}

// TestFilesExist guards the globs above against silently matching nothing.
func TestFilesExist(t *testing.T) {
	require.NotEmpty(t, bundled(t))
	_, err := os.Stat("../../testdata/nospace.litmus")
	require.NoError(t, err)
	require.True(t, slices.ContainsFunc(bundled(t), func(s string) bool { return strings.HasSuffix(s, "nospace.litmus") }))
}
