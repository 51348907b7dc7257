package model

import (
	"context"
	"errors"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

func parseSrc(name, src string) (*litmus.Test, error) { return litmus.Parse(name, []byte(src)) }

func run(t *testing.T, src string, m Model, opt Options) *Result {
	t.Helper()
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	res, err := Check(context.Background(), test, m, opt)
	require.NoError(t, err)
	return res
}

const sb = `C SB
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

const mp = `C MP
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	FENCE
	STORE
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*y);
	smp_rmb();
	r1 = READ_ONCE(*x);
}
exists (1:r0=1 /\ 1:r1=0)
`

func mpWith(fence, store string) string {
	return strings.NewReplacer("FENCE", fence, "STORE", store).Replace(mp)
}

// TestVerdicts pins the classic shapes on each model: what each machine
// allows is the point of the product.
func TestVerdicts(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want map[Model]Verdict
	}{
		{"SB", sb, map[Model]Verdict{SC: Never, TSO: Sometimes, PSO: Sometimes}},
		{"SB+mb", strings.ReplaceAll(sb, "WRITE_ONCE(*x, 1);", "WRITE_ONCE(*x, 1); smp_mb();"), map[Model]Verdict{SC: Never, TSO: Sometimes, PSO: Sometimes}},
		{"SB+mbs", strings.NewReplacer("WRITE_ONCE(*x, 1);", "WRITE_ONCE(*x, 1); smp_mb();", "WRITE_ONCE(*y, 1);", "WRITE_ONCE(*y, 1); smp_mb();").Replace(sb), map[Model]Verdict{SC: Never, TSO: Never, PSO: Never}},
		{"SB+store_mb", strings.NewReplacer("WRITE_ONCE(*x, 1);", "smp_store_mb(*x, 1);", "WRITE_ONCE(*y, 1);", "smp_store_mb(*y, 1);").Replace(sb), map[Model]Verdict{SC: Never, TSO: Never, PSO: Never}},
		{"SB+xchg", strings.NewReplacer("WRITE_ONCE(*x, 1);", "r0 = xchg(x, 1);", "WRITE_ONCE(*y, 1);", "r0 = xchg(y, 1);").Replace(sb), map[Model]Verdict{SC: Never, TSO: Never, PSO: Never}},
		{"MP", mpWith("", "WRITE_ONCE(*y, 1);"), map[Model]Verdict{SC: Never, TSO: Never, PSO: Sometimes}},
		{"MP+wmb", mpWith("smp_wmb();", "WRITE_ONCE(*y, 1);"), map[Model]Verdict{SC: Never, TSO: Never, PSO: Never}},
		{"MP+release", mpWith("", "smp_store_release(y, 1);"), map[Model]Verdict{SC: Never, TSO: Never, PSO: Never}},
		{"MP+rmb-only", mpWith("smp_rmb();", "WRITE_ONCE(*y, 1);"), map[Model]Verdict{SC: Never, TSO: Never, PSO: Sometimes}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for m, want := range c.want {
				for _, plain := range []bool{false, true} {
					res := run(t, c.src, m, Options{Plain: plain})
					require.Equal(t, want, res.Verdict, "%s plain=%v: states %v", m, plain, stateLines(res))
				}
			}
		})
	}
}

// TestWitness: the SB witness under TSO is a shortest trace in which both
// loads read 0 from memory, each while the other thread's store is still
// in its buffer.
func TestWitness(t *testing.T) {
	res := run(t, sb, TSO, Options{})
	require.Equal(t, Sometimes, res.Verdict)
	require.True(t, res.Ok)
	require.Equal(t, "Allowed", res.Kind)
	require.Equal(t, `exists (0:r0=0 /\ 1:r0=0)`, res.Condition)
	require.NotNil(t, res.Witness)
	require.True(t, res.Witness.Shortest)
	// 2 buffered stores, 2 loads from memory, 2 drains.
	require.Len(t, res.Witness.Steps, 6, res.Witness.String())
	var loads, drains, buffered int
	for _, s := range res.Witness.Steps {
		switch {
		case s.Kind == StepDrain:
			drains++
		case s.Read != nil:
			require.Equal(t, FromMemory, s.From)
			require.Equal(t, int64(0), s.Read.Int)
			loads++
		case s.Note == "buffered":
			buffered++
			require.NotZero(t, s.Pos.Line)
		}
	}
	require.Equal(t, [3]int{2, 2, 2}, [3]int{loads, drains, buffered}, res.Witness.String())
	// Both searches give a six-step trace (every run has six steps).
	for _, plain := range []bool{false, true} {
		r := run(t, sb, TSO, Options{Plain: plain})
		require.True(t, r.Witness.Shortest)
		require.Len(t, r.Witness.Steps, 6)
	}
	require.Contains(t, res.Witness.String(), "r0 = READ_ONCE(*y)   read y=0 from memory")

	// WitnessFor explains another final state.
	test, err := parseSrc("t.litmus", sb+"\n")
	require.NoError(t, err)
	prop := test.Cond.Prop.(*litmus.ParenProp).X.(*litmus.BinProp).X // 0:r0=0
	res = run(t, sb, SC, Options{WitnessFor: prop})
	require.NotNil(t, res.Witness)
	require.Equal(t, Never, res.Verdict)

	// Under SC there is no witness for the condition.
	res = run(t, sb, SC, Options{})
	require.Nil(t, res.Witness)
}

// TestWitnessForwarding: a load that reads its own buffered store says so.
func TestWitnessForwarding(t *testing.T) {
	src := `C fwd
{}
P0(int *x)
{
	int r0;
	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*x);
}
exists (0:r0=1)
`
	res := run(t, src, TSO, Options{})
	require.NotNil(t, res.Witness)
	require.Equal(t, FromBuffer, res.Witness.Steps[1].From, res.Witness.String())
}

func TestInvariant(t *testing.T) {
	src := `C inv
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
}
P1(int *x, int *y)
{
	int r0;
	r0 = READ_ONCE(*y);
}
invariant ([y]=0 \/ [x]=1)
exists (1:r0=1)
`
	// Holds in every state under TSO (stores reach memory in order)...
	res := run(t, src, TSO, Options{})
	require.Empty(t, res.Violations)
	require.Equal(t, "plain", res.Stats.Engine, "invariants need every state")
	// ...but not under PSO, where y may reach memory first.
	res = run(t, src, PSO, Options{})
	require.Len(t, res.Violations, 1)
	v := res.Violations[0]
	require.Equal(t, `invariant ([y]=0 \/ [x]=1)`, v.Invariant)
	require.Equal(t, "[x]=0; [y]=1;", v.State)
	require.True(t, v.Trace.Shortest)
	last := v.Trace.Steps[len(v.Trace.Steps)-1]
	require.Equal(t, StepDrain, last.Kind)
	require.Equal(t, "y", last.Loc)
	require.Len(t, v.Trace.Steps, 3, v.Trace.String()) // two buffered stores, then y drains
}

func TestStuckLock(t *testing.T) {
	src := `C deadlock
{}
P0(spinlock_t *a, spinlock_t *b)
{
	spin_lock(a);
	spin_lock(b);
	spin_unlock(b);
	spin_unlock(a);
}
P1(spinlock_t *a, spinlock_t *b)
{
	spin_lock(b);
	spin_lock(a);
	spin_unlock(a);
	spin_unlock(b);
}
exists (a=0)
`
	for _, m := range []Model{SC, TSO, PSO} {
		res := run(t, src, m, Options{})
		require.NotEmpty(t, res.Stuck, m)
		st := res.Stuck[0]
		require.Equal(t, []int{0, 1}, st.Threads)
		require.Contains(t, st.Reason, "P0 waits forever at line 6: spin_lock(b)")
		require.Equal(t, Always, res.Verdict) // the final states that exist have a=0
	}
}

func TestStuckSpin(t *testing.T) {
	src := `C spin
{}
P0(int *x, int *y)
{
	int r0;
	r0 = READ_ONCE(*x);
	while (r0 == 0)
		r0 = READ_ONCE(*x);
	WRITE_ONCE(*y, 1);
}
P1(int *x)
{
	WRITE_ONCE(*x, WRITER);
}
exists (0:r0=1)
`
	// With the writer storing 1, every run finishes: nothing is stuck.
	res := run(t, strings.ReplaceAll(src, "WRITER", "1"), TSO, Options{})
	require.Empty(t, res.Stuck)
	require.Equal(t, []string{"0:r0=1;"}, stateLines(res))
	require.Equal(t, Always, res.Verdict)
	// With the writer storing 0, P0 spins forever and no final state exists.
	res = run(t, strings.ReplaceAll(src, "WRITER", "0"), TSO, Options{})
	require.Zero(t, res.States.Len())
	require.NotEmpty(t, res.Stuck)
	require.Equal(t, []int{0}, res.Stuck[0].Threads)
	require.Contains(t, res.Stuck[0].Reason, "P0 can never finish")
}

func TestStuckGracePeriod(t *testing.T) {
	src := `C gp-in-reader
{}
P0(int *x)
{
	rcu_read_lock();
	synchronize_rcu();
	rcu_read_unlock();
}
exists (x=0)
`
	res := run(t, src, TSO, Options{})
	require.Zero(t, res.States.Len())
	require.Len(t, res.Stuck, 1)
	require.Contains(t, res.Stuck[0].Reason, "synchronize_rcu()")
}

func TestUnboundedLoopIsUnknown(t *testing.T) {
	src := `C count
{}
P0(int *x)
{
	int r0;
	r0 = 0;
	while (1)
		r0 = r0 + 1;
}
exists (0:r0=1)
`
	res := run(t, src, SC, Options{MaxStates: 1000})
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "state limit")
	require.False(t, res.Ok)
	require.Empty(t, res.Stuck, "an incomplete search proves nothing stuck")

	res = run(t, src, TSO, Options{Timeout: time.Millisecond, MaxStates: 1 << 30})
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 1ms", res.Reason)

	// A loop that keeps storing grows the store buffer without bound.
	storing := strings.Replace(src, "r0 = r0 + 1;", "{ r0 = r0 + 1; WRITE_ONCE(*x, r0); }", 1)
	res = run(t, storing, TSO, Options{})
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "store buffer grew past")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	r, err := Check(ctx, test, PSO, Options{})
	require.NoError(t, err)
	require.Equal(t, Unknown, r.Verdict)
	require.Contains(t, r.Reason, "cancel")
}

func TestErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"C e\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (1:r0=0)\n", "t.litmus:7:9: no thread P1"},
		{"C e\n{}\nP0(int *x)\n{\n\tfrob(x);\n}\nexists (x=0)\n", "t.litmus:5:2: unknown primitive frob"},
		{"C e\n{}\nP0(int *x)\n{\n\tx = 1;\n}\nexists (x=0)\n", "t.litmus:5:2: cannot assign to x"},
	}
	for _, c := range cases {
		test, err := parseSrc("t.litmus", c.src)
		if err != nil {
			require.Contains(t, err.Error(), c.want[:10]) // the parser caught it first
			continue
		}
		_, err = Check(context.Background(), test, TSO, Options{})
		require.Error(t, err, c.src)
		require.Contains(t, err.Error(), c.want)
	}
	test, err := parseSrc("t.litmus", sb)
	require.NoError(t, err)
	_, err = Check(context.Background(), test, Model{}, Options{})
	require.True(t, errors.Is(err, ErrNotSupported))
}

func TestParseModel(t *testing.T) {
	for _, m := range Models() {
		got, err := ParseModel(strings.ToUpper(m.String()))
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	m, err := ParseModel("x86-TSO")
	require.NoError(t, err)
	require.Equal(t, TSO, m)
	_, err = ParseModel("arm")
	require.Error(t, err)
}

// TestDeterministic: two runs print the same result.
func TestDeterministic(t *testing.T) {
	for _, m := range []Model{SC, TSO, PSO} {
		a, b := run(t, shapes.SBRing(5), m, Options{}), run(t, shapes.SBRing(5), m, Options{})
		var wa, wb strings.Builder
		require.NoError(t, a.WriteHerd(&wa))
		require.NoError(t, b.WriteHerd(&wb))
		require.Equal(t, wa.String(), wb.String())
		require.Equal(t, a.Witness == nil, b.Witness == nil)
		if a.Witness != nil {
			require.Equal(t, a.Witness.String(), b.Witness.String())
		}
		require.Equal(t, a.Stats.States, b.Stats.States)
	}
}

func TestWriteHerd(t *testing.T) {
	res := run(t, sb, TSO, Options{})
	var b strings.Builder
	require.NoError(t, res.WriteHerd(&b))
	require.Equal(t, `Test SB Allowed
States 4
0:r0=0; 1:r0=0;
0:r0=0; 1:r0=1;
0:r0=1; 1:r0=0;
0:r0=1; 1:r0=1;
Ok
Witnesses
Positive: 1 Negative: 3
Condition exists (0:r0=0 /\ 1:r0=0)
Observation SB Sometimes 1 3
`, b.String())
}

// TestWitnessQuantifiers: ~exists is explained by a state where its
// proposition holds, forall by one where it fails.
func TestWitnessQuantifiers(t *testing.T) {
	notExists := strings.Replace(sb, "exists (", "~exists (", 1)
	res := run(t, notExists, TSO, Options{})
	require.Equal(t, "Forbidden", res.Kind)
	require.False(t, res.Ok)
	require.NotNil(t, res.Witness)
	zeros := 0
	for _, st := range res.Witness.Steps {
		if st.Read != nil && st.Read.Int == 0 {
			zeros++
		}
	}
	require.Equal(t, 2, zeros, "both loads read 0:\n%s", res.Witness)
	res = run(t, notExists, SC, Options{})
	require.True(t, res.Ok)
	require.Nil(t, res.Witness)

	forall := strings.Replace(sb, `exists (0:r0=0 /\ 1:r0=0)`, `forall (0:r0=1 \/ 1:r0=1)`, 1)
	res = run(t, forall, TSO, Options{})
	require.Equal(t, "Required", res.Kind)
	require.False(t, res.Ok)
	require.NotNil(t, res.Witness)
	res = run(t, forall, SC, Options{})
	require.True(t, res.Ok)
	require.Equal(t, Always, res.Verdict)
	require.Nil(t, res.Witness)
}

// TestConcurrentChecks: Check only reads its test, so several may run on
// one test at once (the CLI checks several models in parallel).
func TestConcurrentChecks(t *testing.T) {
	test, err := parseSrc("t.litmus", shapes.SBRing(4))
	require.NoError(t, err)
	want := map[Model]string{}
	for _, m := range []Model{SC, TSO, PSO} {
		res, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err)
		want[m] = strings.Join(stateLines(res), "\n")
	}
	errs := make(chan error, 12)
	for i := 0; i < 12; i++ {
		m := []Model{SC, TSO, PSO}[i%3]
		go func() {
			res, err := Check(context.Background(), test, m, Options{})
			if err == nil && strings.Join(stateLines(res), "\n") != want[m] {
				err = errors.New(m.String() + ": different states")
			}
			errs <- err
		}()
	}
	for i := 0; i < 12; i++ {
		require.NoError(t, <-errs)
	}
}

// TestConditionCanonicalRegisters: herd's Condition line names a RISC-V
// register by its number (a0 is x10) and a POWER one in lower case.
func TestConditionCanonicalRegisters(t *testing.T) {
	res := run(t, `RISCV abi
{
0:a1=x;
}
 P0          ;
 lw a0,0(a1) ;
exists (0:a0=0 /\ [x]=0)
`, RISCV, Options{})
	require.Equal(t, `exists (0:x10=0 /\ [x]=0)`, res.Condition)
	res = run(t, `PPC upper
{
0:r1=x;
}
 P0           ;
 lwz r2,0(r1) ;
exists (0:R2=0)
`, PPC, Options{})
	require.Equal(t, `exists (0:r2=0)`, res.Condition)
}

// TestConditionParentheses: herd's Condition line (lib/constrGen.ml)
// leaves out the parentheses of a conjunction inside a disjunction and of
// chained implications; this line is herd7 7.58's for the test.
func TestConditionParentheses(t *testing.T) {
	res := run(t, `PPC cnd
{
0:r1=x;
}
 P0           ;
 lwz r2,0(r1) ;
exists ((0:r2=1 /\ [x]=0) \/ (0:r2=0 /\ ([x]=1 \/ [x]=2)) \/ not (0:r2=3 => ([x]=1 => [x]=2)))
`, PPC, Options{})
	require.Equal(t, `exists (0:r2=1 /\ [x]=0 \/ 0:r2=0 /\ ([x]=1 \/ [x]=2) \/ not (0:r2=3 => [x]=1 => [x]=2))`, res.Condition)
}

// TestNoCondition: a test with a locations clause and no condition is
// herd's "Test NAME Required" with "Condition forall (true)".
func TestNoCondition(t *testing.T) {
	res := run(t, `PPC nocond
{
0:r1=x;
}
 P0           ;
 lwz r2,0(r1) ;
locations [0:r2;]
`, PPC, Options{})
	require.Equal(t, "Required", res.Kind)
	require.Equal(t, "forall (true)", res.Condition)
	require.Equal(t, Always, res.Verdict)
}
