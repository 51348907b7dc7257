package lkmm

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/stretchr/testify/require"
)

// longThread is a test whose P0 runs n smp_mb() after a store: one
// execution of n+3 events, whose relations take n² bits each.
func longThread(n int) string {
	return "C long\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n" + strings.Repeat("\tsmp_mb();\n", n) + "}\nexists (x=1)\n"
}

// TestTimeoutBoundsLongExecutions: the time limit holds inside the
// relation algebra of one large execution, where the engine used to poll
// only between candidates (20,000 smp_mb() with a 2 s timeout took 63 s),
// and the reason is in words, not "context deadline exceeded".
func TestTimeoutBoundsLongExecutions(t *testing.T) {
	res, err := Check(context.Background(), mustParse(t, "long", longThread(3000)), Options{Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 50ms", res.Reason)
}

// TestMemoryCapRefusesHugeExecutions: an execution whose relations
// cannot fit under the cap is refused before any is built (20,000
// smp_mb() used to reach 4.2 GB, and a 57 MB test a Go "out of memory"
// crash).
func TestMemoryCapRefusesHugeExecutions(t *testing.T) {
	res, err := Check(context.Background(), mustParse(t, "long", longThread(20000)), Options{})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, fmt.Sprintf("memory cap: an execution of 20002 events needs at least %s for its relations (64 of them, 20002² bits each), over the 1536.0 MiB cap", limit.Bytes(64*relBytes(20002))), res.Reason)
}

// TestMemoryCapHoldsWhileBuildingRelations: below that bound, the arena
// asks the budget before each block of relations, and the search stops
// at the cap.
func TestMemoryCapHoldsWhileBuildingRelations(t *testing.T) {
	const capBytes = 140 << 20
	runtime.GC()
	base := limit.ProcessHeld()
	res, err := Check(context.Background(), mustParse(t, "long", longThread(4000)), Options{MaxMemory: capBytes})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.True(t, strings.HasPrefix(res.Reason, "memory cap: "), res.Reason)
	require.LessOrEqual(t, limit.ProcessHeld(), base+capBytes+32<<20, "the process grew past what the search accounts")
}
