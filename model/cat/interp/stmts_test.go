package interp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
)

const mpAArch64 = `AArch64 MP
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | LDR W2,[X3] ;
 MOV W2,#1   |             ;
 STR W2,[X3] |             ;
exists (1:X0=1 /\ 1:X2=0)
`

// checkWith runs the cat model src (written to a file, with the other
// files beside it) on AArch64 test test.
func checkWith(t *testing.T, src string, files map[string]string, test string) (*Result, error) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	path := filepath.Join(dir, "m.cat")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	m, err := Load(path, Options{})
	if err != nil {
		return nil, err
	}
	lt, err := litmus.Parse("t.litmus", []byte(test))
	require.NoError(t, err)
	p, err := arch.Program(lt, arch.Options{})
	require.NoError(t, err)
	return m.Check(context.Background(), p, CheckOptions{})
}

// TestLetRecWhen: a let rec's when test sees the names the let rec
// defines, at each round, as herd's env_rec_vals evaluates it (herd7
// 7.58: "herd7 -model m.cat MP.litmus" with these models and this test
// gives States 0, then States 3 with Observation MP Never 0 3).
func TestLetRecWhen(t *testing.T) {
	// An earlier r1 = 0 must not be what the test sees: the let rec's r1
	// holds po, which is not empty, so every execution is rejected.
	res, err := checkWith(t, `"when empty"
include "cos.cat"
let r1 = 0
let rec r1 = po | (r1 ; r1) when empty r1
acyclic po | rf | co | fr as sc
`, nil, mpAArch64)
	require.NoError(t, err)
	require.Zero(t, res.States.Len())

	res, err = checkWith(t, `"when acyclic"
include "cos.cat"
let rec r1 = po | (r1 ; r1) when acyclic r1
acyclic po | rf | co | fr as sc
`, nil, mpAArch64)
	require.NoError(t, err)
	require.Equal(t, 3, res.States.Len())
	require.Equal(t, 0, res.Positive)
	require.Equal(t, 3, res.Negative)
}

// TestNestedIncludeRefused: an include inside a procedure, a forall or a
// match is refused with its position, never skipped.
func TestNestedIncludeRefused(t *testing.T) {
	inner := map[string]string{"inner.cat": "acyclic po | rf | co | fr as sc\n"}
	for name, src := range map[string]string{
		"procedure": "\"p\"\ninclude \"cos.cat\"\nprocedure p() =\n  include \"inner.cat\"\nend\ncall p()\n",
		"forall":    "\"f\"\ninclude \"cos.cat\"\nforall e in W do\n  include \"inner.cat\"\nend\n",
	} {
		_, err := checkWith(t, src, inner, mpAArch64)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), `:4:3: include "inner.cat" inside a procedure, forall or match: not supported`, name)
	}
	// At the top level it is read.
	res, err := checkWith(t, "\"top\"\ninclude \"cos.cat\"\ninclude \"inner.cat\"\n", inner, mpAArch64)
	require.NoError(t, err)
	require.Equal(t, 3, res.States.Len())
}
