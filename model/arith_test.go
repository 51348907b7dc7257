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

// TestArithmeticStoresNarrowed: a value stored to a shared location keeps
// its C type's low bits under every model, as the kernel's compilers
// store it (a 32-bit str for an int, whatever the register holds), and
// the literal forms INT_MAX + 1 and 2^62-1 + 2^62-1 + 2 fold as the
// registers compute them. sc/tso/pso and lkmm stored 2^31 into an int
// and 2^32 into the int read back (the 64-bit value), the architectures
// -2^31 and 0.
func TestArithmeticStoresNarrowed(t *testing.T) {
	const src = `C stores
{}
P0(int *x, long *y, int *z)
{
	int r1;
	long r2;
	int r3;
	r1 = 2147483647 + 1;
	r2 = 2147483647;
	r2 = r2 + 1;
	WRITE_ONCE(*x, r2);
	WRITE_ONCE(*y, r2);
	r2 = r2 + r2;
	WRITE_ONCE(*z, r2);
	r3 = READ_ONCE(*z);
}
exists (0:r1=0 /\ 0:r3=0 /\ x=0 /\ y=0 /\ z=0)
`
	test, err := parseSrc("stores.litmus", src)
	require.NoError(t, err)
	const want = "0:r1=-2147483648; 0:r3=0; [x]=-2147483648; [y]=2147483648; [z]=0;"
	for _, m := range allModels() {
		res, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, []string{want}, stateLines(res), m.String())
	}
}

// TestArithmeticNarrowTypes: under every model a store keeps a short's
// 16 bits and an unsigned int's 32 unsigned, and a register its type's,
// as the kernel's compilers store and convert them. The architectures'
// compiled tests (model/kcomp) kept one 64-bit word per location and per
// register and printed them as herd's int: [w]=98304, [u]=-1, [c]=511,
// 1:r0=-1 and the char and short registers unconverted.
func TestArithmeticNarrowTypes(t *testing.T) {
	const src = `C narrow
{ short w; unsigned int u; unsigned char c; }
P0(short *w, unsigned int *u, unsigned char *c)
{
	signed char r1;
	unsigned short r2;
	int r3;
	WRITE_ONCE(*w, 98304);
	WRITE_ONCE(*u, -1);
	WRITE_ONCE(*c, 511);
	r1 = 200;
	r2 = READ_ONCE(*w);
	r3 = READ_ONCE(*u);
	r3 = r3 + 1;
}
P1(unsigned int *u)
{
	unsigned int r0;
	r0 = xchg(u, 4294967296);
}
exists (1:r0=0 /\ w=0 /\ u=0 /\ c=0 /\ 0:r1=0 /\ 0:r2=0 /\ 0:r3=0)
`
	test, err := parseSrc("narrow.litmus", src)
	require.NoError(t, err)
	for _, m := range allModels() {
		res, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, []string{
			"0:r1=-56; 0:r2=32768; 0:r3=0; 1:r0=0; [c]=255; [u]=4294967295; [w]=-32768;",
			"0:r1=-56; 0:r2=32768; 0:r3=0; 1:r0=4294967295; [c]=255; [u]=0; [w]=-32768;",
			"0:r1=-56; 0:r2=32768; 0:r3=1; 1:r0=4294967295; [c]=255; [u]=0; [w]=-32768;",
		}, stateLines(res), m.String())
	}
}

// TestArithmeticLargeConstants: a constant beyond what one instruction
// of the architecture's dialect takes is built, as a compiler builds it,
// and computes what sc computes. The architectures refused
// 9223372036854775807 with "internal error: the compiled test does not
// parse" (herd reads AArch64 and PPC immediates as 63-bit), and POWER's
// lis/ori kept only 32 bits of a wider one.
func TestArithmeticLargeConstants(t *testing.T) {
	const src = `C big
{}
P0(long *x, unsigned long *y)
{
	long r0;
	long r1;
	long r2;
	long r3;
	long r4;
	unsigned long r5;
	r0 = 9223372036854775807;
	r1 = -9223372036854775807;
	r2 = 98304;
	r3 = 4294967295;
	r4 = -4611686018427387905;
	r5 = 81985529216486895;
	WRITE_ONCE(*x, r0 + 1);
	WRITE_ONCE(*y, -2147483649);
}
exists (0:r0=0 /\ 0:r1=0 /\ 0:r2=0 /\ 0:r3=0 /\ 0:r4=0 /\ 0:r5=0 /\ x=0 /\ y=0)
`
	test, err := parseSrc("big.litmus", src)
	require.NoError(t, err)
	const want = "0:r0=9223372036854775807; 0:r1=-9223372036854775807; 0:r2=98304; 0:r3=4294967295; 0:r4=-4611686018427387905; 0:r5=81985529216486895; [x]=-9223372036854775808; [y]=-2147483649;"
	for _, m := range allModels() {
		res, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, []string{want}, stateLines(res), m.String())
	}
}
