package model

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// arithHerdSrc stores and loads every width, with negative initial
// values, conversions at each store and assignment, and constants beyond
// one instruction's immediate.
const arithHerdSrc = `C arith-herd
{ short w = -5; unsigned int u = 7; unsigned char c = 200; int m = -1; long l = -3; }
P0(short *w, unsigned int *u, unsigned char *c, int *m, long *l)
{
	signed char r1 = 100;
	unsigned short r2;
	int r3;
	unsigned int r4;
	long r5;
	long r6 = 9223372036854775807;
	long r7 = -4611686018427387905;
	r1 = r1 + r1;
	r2 = READ_ONCE(*w);
	r3 = READ_ONCE(*m);
	r4 = r3 - 1;
	r5 = READ_ONCE(*l);
	WRITE_ONCE(*w, r2 + 70000);
	WRITE_ONCE(*u, r3);
	WRITE_ONCE(*c, r1);
	WRITE_ONCE(*l, r4);
	if (r3 < 3)
		WRITE_ONCE(*m, 2147483648);
}
exists (0:r1=0 /\ 0:r2=0 /\ 0:r3=0 /\ 0:r4=0 /\ 0:r5=0 /\ 0:r6=0 /\ 0:r7=0 /\ w=0 /\ u=0 /\ c=0 /\ m=0 /\ l=0)
`

var herdStateRE = regexp.MustCompile(`(?m)^States \d+\n((?:.*;\n)+)`)

// TestArithmeticCompiledHerd7: herd7 runs the compiled tests of a test
// that converts every width (the extension sequences, the typed
// declarations, the built constants are herd's own instructions, not
// only model/arch's) and prints sc's final state, its registers named
// back to C's. It skips without herd7 ($HERD7 or herd7 on the PATH).
func TestArithmeticCompiledHerd7(t *testing.T) {
	herd := herd7Bin()
	if herd == "" {
		t.Skip("no herd7 ($HERD7 or herd7 on the PATH)")
	}
	test, err := parseSrc("arith-herd.litmus", arithHerdSrc)
	require.NoError(t, err)
	want, err := Check(context.Background(), test, SC, Options{})
	require.NoError(t, err)
	dir := t.TempDir()
	for _, m := range ArchModels() {
		c, err := Compile(test, m)
		require.NoError(t, err, m.String())
		path := filepath.Join(dir, m.String()+".litmus")
		require.NoError(t, os.WriteFile(path, c.Text, 0o644))
		out, err := exec.Command(herd, path).CombinedOutput()
		require.NoError(t, err, "herd7 on the %s test:\n%s\n%s", m, out, c.Text)
		st := herdStateRE.FindStringSubmatch(string(out))
		require.NotNil(t, st, "herd7 printed no states for the %s test:\n%s\n%s", m, out, c.Text)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(st[1]), "\n") {
			var items []string
			for _, it := range strings.Split(strings.TrimSuffix(strings.TrimSpace(line), ";"), ";") {
				loc, val, _ := strings.Cut(strings.TrimSpace(it), "=")
				if n, ok := c.CName(loc); ok {
					loc = n
				}
				items = append(items, loc+"="+val)
			}
			got = append(got, canonState(items))
		}
		var wantStates []string
		for _, s := range stateLines(want) {
			wantStates = append(wantStates, canonState(strings.Split(strings.TrimSuffix(strings.TrimSpace(s), ";"), "; ")))
		}
		slices.Sort(got)
		slices.Sort(wantStates)
		require.Equal(t, wantStates, got, "herd7 on the %s test vs sc\n%s", m, c.Text)
	}
}

// canonState sorts a state's "loc=value" items, with "[x]" written "x".
func canonState(items []string) string {
	for i, it := range items {
		items[i] = strings.NewReplacer("[", "", "]", "").Replace(strings.TrimSpace(it))
	}
	slices.Sort(items)
	return strings.Join(items, " ")
}
