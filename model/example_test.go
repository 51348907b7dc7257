package model_test

import (
	"context"
	"fmt"
	"os"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

func Example() {
	src := `C SB
{}
P0(int *x, int *y)
{
	int r0;
	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
	int r0;
	WRITE_ONCE(*y, 1);
	r0 = READ_ONCE(*x);
}
exists (0:r0=0 /\ 1:r0=0)
`
	test, err := litmus.Parse("SB.litmus", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range []model.Model{model.SC, model.TSO} {
		res, err := model.Check(context.Background(), test, m, model.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("== %s\n", m)
		res.WriteHerd(os.Stdout)
		if res.Witness != nil {
			fmt.Print(res.Witness)
		}
	}
	// Output:
	// == sc
	// Test SB Allowed
	// States 3
	// 0:r0=0; 1:r0=1;
	// 0:r0=1; 1:r0=0;
	// 0:r0=1; 1:r0=1;
	// No
	// Witnesses
	// Positive: 0 Negative: 3
	// Condition exists (0:r0=0 /\ 1:r0=0)
	// Observation SB Never 0 3
	// == tso
	// Test SB Allowed
	// States 4
	// 0:r0=0; 1:r0=0;
	// 0:r0=0; 1:r0=1;
	// 0:r0=1; 1:r0=0;
	// 0:r0=1; 1:r0=1;
	// Ok
	// Witnesses
	// Positive: 1 Negative: 3
	// Condition exists (0:r0=0 /\ 1:r0=0)
	// Observation SB Sometimes 1 3
	// P0  line 6   WRITE_ONCE(*x, 1)   store x=1 into the store buffer
	// P1  line 12  WRITE_ONCE(*y, 1)   store y=1 into the store buffer
	// P0  line 7   r0 = READ_ONCE(*y)   read y=0 from memory
	// P1  line 12  WRITE_ONCE(*y, 1)   drain: y=1 reaches memory
	// P1  line 13  r0 = READ_ONCE(*x)   read x=0 from memory
	// P0  line 6   WRITE_ONCE(*x, 1)   drain: x=1 reaches memory
}
