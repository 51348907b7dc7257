package litmus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics (a recovered panic shows as
// an "internal error") and that whatever parses survives a round trip
// through the printer.
func FuzzParse(f *testing.F) {
	var seeds []string
	for _, sub := range []string{"lkmm", "x86", "arch"} {
		root := filepath.Join(corpusDir, sub)
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".litmus") {
				seeds = append(seeds, path)
			}
			return nil
		})
	}
	more, _ := filepath.Glob("testdata/*/*.litmus")
	seeds = append(seeds, more...)
	for _, s := range seeds {
		if src, err := os.ReadFile(s); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte(cTest("r0 = -1; (void)xchg(x, 1);")))
	f.Add([]byte("LISA l\n{ x=0; 0:r2=x; }\n P0 | P1 ;\n r[once] r1 x | w[release] r2 1 ;\n" +
		" mov r3 (xor r1 r1) | f[rcu-lock] ;\n b[] r3 L | rmw[mb] r4 (add r4 1) x ;\n L: | ;\nexists (0:r1=1)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tst, err := Parse("fuzz.litmus", src)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("parser panicked: %v", err)
			}
			return
		}
		requireRoundTrip(t, "fuzz.litmus", tst)
	})
}
