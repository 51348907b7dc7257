package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// herdOf is the body of P0 of a one-thread test with body src, in herd7's
// C, and the notes.
func herdOf(t *testing.T, decls, src string) (string, []HerdNote) {
	t.Helper()
	text := "C t\n{\n" + decls + "\n}\nP0(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n" + src + "\n}\nexists (0:r0=0)\n"
	test, err := Parse("t.litmus", []byte(text))
	require.NoError(t, err, text)
	notes := HerdC(test)
	out := string(Format(test))
	start := strings.Index(out, "P0(")
	end := strings.Index(out, "exists")
	return strings.TrimSpace(out[start:end]), notes
}

// TestHerdCRewrites pins each rewrite to its herd7 form; model's
// TestHerdCSameAnswers holds the forms to the originals' answers.
func TestHerdCRewrites(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"r0 = !READ_ONCE(*x);", "r0 = (READ_ONCE(*x) == 0);"},
		{"r0 = ~r1;", "r0 = (r1 ^ -1);"},
		{"r0 = -r1;", "r0 = (0 - r1);"},
		{"r0 = -1;", "r0 = -1;"},
		{"r0 = r1 && r0;", "r0 = ((r1 != 0) & (r0 != 0));"},
		{"r0 = r1 || r0;", "r0 = ((r1 != 0) | (r0 != 0));"},
		{"r0 = r1 && READ_ONCE(*x);", "herd0 = (r1 != 0);\n\tif (herd0) {\n\t\therd0 = (READ_ONCE(*x) != 0);\n\t}\n\tr0 = herd0;"},
		{"r0 = r1 || READ_ONCE(*x);", "herd0 = (r1 != 0);\n\tif ((herd0 == 0)) {\n\t\therd0 = (READ_ONCE(*x) != 0);\n\t}\n\tr0 = herd0;"},
		{"r0 = READ_ONCE(*x) % 4;", "herd0 = READ_ONCE(*x);\n\tr0 = (herd0 - ((herd0 / 4) * 4));"},
		{"r0 = r1 << 3;", "r0 = (r1 * 8);"},
		{"r0 = r1 >> 2;", "r0 = ((r1 - (r1 & 3)) / 4);"},
		{"r0 = r1 ? READ_ONCE(*x) : 5;", "if (r1) {\n\t\therd0 = READ_ONCE(*x);\n\t} else {\n\t\therd0 = 5;\n\t}\n\tr0 = herd0;"},
		{"r0++;", "r0 = r0 + 1;"},
		{"r0 += r1 + 1;", "r0 = r0 + (r1 + 1);"},
		{"do { r0 = READ_ONCE(*x); } while (r0 == 0);", "r0 = READ_ONCE(*x);\n\twhile (r0 == 0) {\n\t\tr0 = READ_ONCE(*x);\n\t}"},
		{"for (r0 = 0; r0 < 2; r0++) WRITE_ONCE(*x, r0);", "r0 = 0;\n\twhile (r0 < 2) {\n\t\tWRITE_ONCE(*x, r0);\n\t\tr0 = r0 + 1;\n\t}"},
		{"if (READ_ONCE(*x)) { } else { WRITE_ONCE(*y, 1); }", "if (READ_ONCE(*x)) {\n\t\therd0 = 0;\n\t} else {\n\t\tWRITE_ONCE(*y, 1);\n\t}"},
		{"set_bit(3, x);", "atomic_or(8, x);"},
		{"clear_bit(0, x);", "atomic_andnot(1, x);"},
		{"r0 = test_bit(2, x);", "r0 = ((READ_ONCE(*x) & 4) != 0);"},
		{"r0 = test_and_change_bit(1, x);", "r0 = ((atomic_fetch_xor(2, x) & 2) != 0);"},
		{"clear_bit_unlock(0, x);", "herd0 = atomic_fetch_andnot_release(1, x);"},
		{"__set_bit(1, x);", "*x = ((*x) | 2);"},
		{"cpu_relax();", ""},
		{"r0 = atomic_long_read(x);", "r0 = READ_ONCE(*x);"},
		{"smp_mb();", "smp_mb();"},
	} {
		got, notes := herdOf(t, "int x = 0;\nint y = 0;", tc.src)
		body := strings.TrimSpace(strings.TrimPrefix(got, "P0(int *x, int *y)\n{"))
		body = strings.TrimSuffix(body, "}")
		body = strings.TrimSpace(body[strings.Index(body, "int r1;")+len("int r1;"):])
		require.Equal(t, tc.want, body, "%s", tc.src)
		for _, n := range notes {
			require.True(t, n.Inexact, "%s: %s", tc.src, n)
		}
	}
}

// TestHerdCSaysWhatItCannot: what herd7's C cannot say is left as
// written, with a note at its place.
func TestHerdCSaysWhatItCannot(t *testing.T) {
	for _, tc := range []struct{ src, note string }{
		{"r0 = refcount_dec_and_test(x);", "t.litmus:10:6: refcount_dec_and_test: linux-kernel.def has no primitive with its events and orderings"},
		{"r0 = test_and_set_bit(1, x);", "test_and_set_bit: linux-kernel.def has no primitive"},
		{"r0 = r1 << READ_ONCE(*x);", "<< by an amount computed at run time"},
		{"set_bit(r1, x);", "set_bit with a bit number computed at run time"},
		{"while (1) { r0 = READ_ONCE(*x); if (r0) break; }", "break: herd7's C has no break"},
	} {
		got, notes := herdOf(t, "int x = 0;\nint y = 0;", tc.src)
		var msgs []string
		for _, n := range notes {
			if !n.Inexact {
				msgs = append(msgs, n.String())
			}
		}
		require.NotEmpty(t, msgs, "%s: %s", tc.src, got)
		require.Contains(t, strings.Join(msgs, "\n"), tc.note, tc.src)
	}
	_, notes := herdOf(t, "int x = 0;\nint y = 0;\nu8 z = 0;", "r0 = READ_ONCE(*x);")
	require.Len(t, notes, 1)
	require.True(t, notes[0].Inexact)
	require.Contains(t, notes[0].Msg, "z is declared u8")
}
