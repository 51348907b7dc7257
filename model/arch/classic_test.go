package arch

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cat/interp"
)

var resultRE = regexp.MustCompile(`Result: (Never|Sometimes|Always)`)

// TestClassicShapes checks the textbook answers of the classic shapes
// (MP, SB, LB, WRC, IRIW, ISA2, 2+2W, R, S, with and without barriers and
// dependencies) under each architecture's built-in model: testdata/classic
// holds them, written for litmus, each with its Result line (herd7 7.58
// gives the same answers).
func TestClassicShapes(t *testing.T) {
	libs := map[string]string{"aarch64": "aarch64.cat", "riscv": "riscv.cat", "ppc": "ppc.cat"}
	files, err := filepath.Glob("testdata/classic/*/*.litmus")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 50)
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			want := resultRE.FindStringSubmatch(string(src))
			require.NotNil(t, want, "no Result line")
			test, err := litmus.Parse(f, src)
			require.NoError(t, err)
			m, err := interp.LoadLib(libs[filepath.Base(filepath.Dir(f))], interp.Options{})
			require.NoError(t, err)
			p, err := Program(test, Options{})
			require.NoError(t, err)
			res, err := m.Check(context.Background(), p, interp.CheckOptions{})
			require.NoError(t, err)
			require.Equal(t, want[1], res.Verdict.String())
		})
	}
}
