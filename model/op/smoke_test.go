package op

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/model/report"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// stmtTemplates are the statements of the wide random programs: loops,
// RCU, SRCU, pointers, bit operations, refcounts. $1 is a location, $2
// another, $v a value, $r a fresh register.
var stmtTemplates = []string{
	"WRITE_ONCE(*$1, $v);",
	"$r = READ_ONCE(*$1);",
	"smp_store_release($1, $v);",
	"$r = smp_load_acquire($1);",
	"smp_mb();",
	"smp_wmb();",
	"smp_rmb();",
	"rcu_read_lock(); $r = READ_ONCE(*$1); rcu_read_unlock();",
	"rcu_read_lock(); WRITE_ONCE(*$1, $v); rcu_read_unlock();",
	"synchronize_rcu();",
	"$r = srcu_read_lock(s); WRITE_ONCE(*$1, $v); srcu_read_unlock(s, $r);",
	"synchronize_srcu(s);",
	"$r = READ_ONCE(*$1); while ($r == 0) $r = READ_ONCE(*$1);",
	"$r = 0; do { $r = $r + 1; } while ($r < 2);",
	"for ($r = 0; $r < 2; $r++) { if (READ_ONCE(*$1) == $v) break; }",
	"rcu_assign_pointer(*p, $1);",
	"$r = rcu_dereference(*p); $r = READ_ONCE(*$r);",
	"set_bit(1, $1);",
	"$r = test_and_set_bit(0, $1);",
	"__clear_bit(1, $1);",
	"$r = test_bit(1, $1);",
	"refcount_inc($1);",
	"$r = refcount_dec_and_test($1);",
	"$r = atomic_add_unless($1, 1, $v);",
	"$r = atomic_fetch_add_release($v, $1);",
	"$r = atomic_inc_return_acquire($1);",
	"spin_lock(l); $r = READ_ONCE(*$1); WRITE_ONCE(*$2, $r + 1); spin_unlock(l);",
	"$r = spin_trylock(l); if ($r) spin_unlock(l);",
	"$r = spin_is_locked(l);",
	"if (READ_ONCE(*$1) == $v) { WRITE_ONCE(*$2, $v); } else { smp_mb(); }",
	"*$1 = $v;",
	"$r = *$1;",
	"$r = xchg_relaxed($1, $v);",
	"$r = cmpxchg_acquire($1, 0, $v);",
}

func wideProgram(t *rapid.T) string {
	locs := []string{"x", "y", "z"}
	var b strings.Builder
	b.WriteString("C wide\n\n{\n\tint *p = &x;\n}\n\n")
	n := rapid.IntRange(2, 3).Draw(t, "threads")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y, int *z, int **p, spinlock_t *l, struct srcu_struct *s)\n{\n", i)
		k := rapid.IntRange(1, 3).Draw(t, "stmts")
		for j := 0; j < k; j++ {
			tmpl := rapid.SampledFrom(stmtTemplates).Draw(t, "stmt")
			l1 := rapid.SampledFrom(locs).Draw(t, "loc")
			l2 := rapid.SampledFrom(locs).Draw(t, "loc2")
			v := rapid.IntRange(1, 2).Draw(t, "val")
			r := strings.NewReplacer("$1", l1, "$2", l2, "$v", fmt.Sprint(v), "$r", fmt.Sprintf("r%d", j))
			b.WriteString("\t" + r.Replace(tmpl) + "\n")
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("exists (x=1 /\\ y=1)\n")
	return b.String()
}

// TestSmokeWide runs random programs over most of the language on every
// model: no panic, no error, SC ⊆ TSO ⊆ PSO, the reduced search equal to
// the plain one (final states, and whether something is stuck), and a
// search that ends (possibly Unknown at the state limit) with stuck states
// explained.
func TestSmokeWide(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := wideProgram(t)
		test, err := parseSrc("wide.litmus", src)
		require.NoError(t, err, src)
		var prev map[string]bool
		complete := true
		for _, m := range []Machine{SC, TSO, PSO} {
			res, err := Check(context.Background(), test, m, report.Options{MaxStates: 200_000})
			if err != nil {
				// Only a runtime meaning error is acceptable, with a position.
				require.Contains(t, err.Error(), "wide.litmus:", src)
				return
			}
			for _, st := range res.Stuck {
				require.NotEmpty(t, st.Threads, "%s\n%s", m, src)
				require.NotEmpty(t, st.Reason)
			}
			if res.Verdict == report.Unknown {
				complete = false
				continue
			}
			if res.Stats.Engine == "reduced" {
				plain, err := Check(context.Background(), test, m, report.Options{MaxStates: 200_000, Plain: true})
				require.NoError(t, err)
				if plain.Verdict != report.Unknown {
					require.Equal(t, stateLines(plain), stateLines(res), "%s reduced != plain\n%s", m, src)
					require.Equal(t, len(plain.Stuck) > 0, len(res.Stuck) > 0, "%s: stuck states differ\n%s", m, src)
				}
			}
			cur := map[string]bool{}
			for _, s := range stateLines(res) {
				cur[s] = true
			}
			if complete {
				for s := range prev {
					require.True(t, cur[s], "%s misses %q\n%s", m, s, src)
				}
			}
			prev = cur
		}
	})
}
