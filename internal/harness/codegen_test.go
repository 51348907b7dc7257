package harness

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const codegenGolden = "testdata/codegen.golden"

// TestCodegenUnchanged holds the machine code generated for every bundled
// and corpus test, per code generator, to a digest recorded in
// testdata/codegen.golden: a change to the front end or the generators
// that is meant to change no behaviour (a refactor) must leave every
// thread's bytes as they were. A change meant to alter the code rewrites
// the file with -update, and the diff shows which tests it touched. Tests
// absent here (no shared corpus) are skipped; a test with no line yet
// fails until -update records it.
func TestCodegenUnchanged(t *testing.T) {
	want := map[string]string{}
	if b, err := os.ReadFile(codegenGolden); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(line, " = "); ok {
				want[k] = v
			}
		}
	} else if !*update {
		require.NoError(t, err)
	}
	got := map[string]string{}
	files := append(bundled(t), corpusTests(t)...)
	for _, arch := range []kmap.Arch{kmap.X86_64, kmap.ARM64, kmap.ARM64LLSC} {
		for _, f := range files {
			tt, err := litmus.ParseFile(f)
			if err != nil || tt.Arch != litmus.ArchC && arch != kmap.X86_64 {
				continue
			}
			key := string(arch) + " " + strings.TrimPrefix(f, corpusDir+"/")
			p, err := compile(tt, string(arch), Options{}.withDefaults())
			if err != nil {
				got[key] = "error: " + err.Error()
				continue
			}
			h := sha256.New()
			for _, th := range p.threads {
				fmt.Fprintf(h, "P%d %d %x\n", th.id, th.nres, th.code)
			}
			for _, c := range p.cols {
				fmt.Fprintf(h, "%s %d %d %d\n", c.name, c.thread, c.slot, c.width)
			}
			got[key] = fmt.Sprintf("%x", h.Sum(nil))[:24]
		}
	}
	if *update {
		for k, v := range want {
			if _, ok := got[k]; !ok {
				got[k] = v // a corpus test not present here keeps its line
			}
		}
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s = %s\n", k, got[k])
		}
		require.NoError(t, os.WriteFile(codegenGolden, []byte(b.String()), 0o644))
		return
	}
	require.NotEmpty(t, got)
	for k, v := range got {
		w, ok := want[k]
		require.True(t, ok, "%s has no line in %s (run go test -update)", k, codegenGolden)
		require.Equal(t, w, v, "%s: the generated code changed", k)
	}
}
