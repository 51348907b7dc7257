package model

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArithmeticOneSemantics: one C program computes the same values
// under every model, with the C types' widths as the kernel compiles
// them (model/ctype): int wraps at 32 bits, long at 64 (2^62-1 doubled
// plus 2 is INT64_MAX + 1: herd reads AArch64 integers as 63-bit, so
// INT64_MAX itself cannot be an immediate). INT64_MAX + 1 was
// -2^63 under sc/lkmm but 0 under the architectures (their registers
// printed as herd's 32-bit int), and INT_MAX + 1 was 2^31 under sc/lkmm
// (int as 64 bits) but -2^31 under the architectures, where a long
// holding 2^31 printed as -2^31.
func TestArithmeticOneSemantics(t *testing.T) {
	const src = `C arith
{}
P0(int *x, long *y)
{
	long r0;
	int r1;
	long r2;
	int r3;
	r0 = 4611686018427387903;
	r0 = r0 + r0;
	r0 = r0 + 2;
	r1 = 2147483647;
	r1 = r1 + 1;
	r2 = 2147483647;
	r2 = r2 + 1;
	r3 = 4294967297;
	if (r1 < 0)
		WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, r0);
}
exists (0:r0=0 /\ 0:r1=0 /\ 0:r2=0 /\ 0:r3=0 /\ x=0 /\ y=0)
`
	test, err := parseSrc("arith.litmus", src)
	require.NoError(t, err)
	const want = "0:r0=-9223372036854775808; 0:r1=-2147483648; 0:r2=2147483648; 0:r3=1; [x]=1; [y]=-9223372036854775808;"
	for _, m := range allModels() {
		res, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, Never, res.Verdict, m.String())
		require.Equal(t, []string{want}, stateLines(res), m.String())
	}
}
