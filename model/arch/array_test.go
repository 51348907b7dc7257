package arch_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/cat/interp"
)

// TestArrays checks array locations in an assembly test: each cell is a
// location, reached at its offset from the array's address; an access
// past the array drops the path; in a mixed-size test an array is one
// symbol of all its cells (herd7 7.58 -variant mixed gives the same two
// states and counts).
func TestArrays(t *testing.T) {
	aarch64 := libModel(t, "aarch64.cat")
	run := func(src string, mixed bool) (*interp.Result, error) {
		test, err := litmus.Parse("arr.litmus", []byte(src))
		require.NoError(t, err)
		p, err := arch.Program(test, arch.Options{Mixed: mixed})
		if err != nil {
			return nil, err
		}
		return aarch64.Check(context.Background(), p, interp.CheckOptions{})
	}
	r, err := run(`AArch64 cells
{
uint32_t x[2];
0:X5=x;
1:X5=x;
}
 P0             | P1             ;
 MOV W1,#1      | LDR W1,[X5,#4] ;
 STR W1,[X5,#4] | LDR W2,[X5]    ;
 MOV W3,#2      | LDR W3,[X5,#8] ;
 STR W3,[X5]    |                ;
exists (1:X1=1 /\ 1:X2=0)
`, false)
	require.NoError(t, err)
	// P1's read past the array (x+8) drops its paths: no final state.
	require.Empty(t, catAnswer(r).states)

	r, err = run(`AArch64 cells
{
uint32_t x[2];
0:X5=x;
1:X5=x;
}
 P0             | P1             ;
 MOV W1,#1      | LDR W1,[X5,#4] ;
 STR W1,[X5,#4] | LDR W2,[X5]    ;
 MOV W3,#2      |                ;
 STR W3,[X5]    |                ;
exists (1:X1=1 /\ 1:X2=0)
`, false)
	require.NoError(t, err)
	require.Equal(t, "Sometimes {1:X1=0; 1:X2=0; | 1:X1=0; 1:X2=2; | 1:X1=1; 1:X2=0; | 1:X1=1; 1:X2=2;}", catAnswer(r).String())

	mixed := `AArch64 mixed-cells
{
uint32_t x[2];
0:X5=x;
1:X5=x;
}
 P0             | P1             ;
 MOV W1,#1      | LDRB W2,[X5]    ;
 STR W1,[X5,#4] | LDRB W3,[X5,#4] ;
exists (1:X2=0 /\ 1:X3=1)
`
	_, err = run(mixed, false)
	require.True(t, arch.IsMixed(err), "%v", err)
	r, err = run(mixed, true)
	require.NoError(t, err)
	require.Equal(t, "Sometimes {1:X2=0; 1:X3=0; | 1:X2=0; 1:X3=1;}", catAnswer(r).String())
	require.Equal(t, []int{1, 1}, []int{r.Positive, r.Negative})
}
