// Package shapes writes the scale families of the benchmarks and tests as
// C litmus tests: the store-buffering ring and IRIW with more readers,
// the same text for every engine, so that their figures compare.
package shapes

import (
	"fmt"
	"strings"
)

// SBRing returns the store-buffering ring of n threads: thread i writes
// x_i then reads x_{i+1}; the condition asks that every read sees 0.
func SBRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C SB-ring-%d\n\n{}\n\n", n)
	var cond []string
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		fmt.Fprintf(&b, "P%d(int *x%d, int *x%d)\n{\n\tint r0;\n\n\tWRITE_ONCE(*x%d, 1);\n\tr0 = READ_ONCE(*x%d);\n}\n\n", i, i, j, i, j)
		cond = append(cond, fmt.Sprintf("%d:r0=0", i))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// IRIW returns IRIW with k readers: two writers, and readers that read x
// then y (even readers) or y then x (odd readers); the condition asks
// that the two groups see the writes in opposite orders.
func IRIW(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C IRIW-%d\n\n{}\n\n", k)
	b.WriteString("P0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n\nP1(int *y)\n{\n\tWRITE_ONCE(*y, 1);\n}\n\n")
	var cond []string
	for i := 0; i < k; i++ {
		a, c := "x", "y"
		if i%2 == 1 {
			a, c = "y", "x"
		}
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = READ_ONCE(*%s);\n\tr1 = READ_ONCE(*%s);\n}\n\n", i+2, a, c)
		cond = append(cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i+2, i+2))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// RCURing returns the ring of paulmckrcu/litmus's auto/C-RW-* tests:
// thread i reads x_i and then writes x_{i+1}, separated by
// synchronize_rcu() when kinds[i] is 'G' (a grace period) or inside an
// RCU read-side critical section when it is 'R'; the condition asks that
// every read sees the write before it. Each read has two sources, so the
// test has 2^n candidate executions and, with the cycle forbidden or
// not, close to 2^n distinct final states.
func RCURing(kinds string) string {
	var b strings.Builder
	n := len(kinds)
	fmt.Fprintf(&b, "C RCU-ring-%s\n\n{}\n\n", kinds)
	var cond []string
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		fmt.Fprintf(&b, "P%d(int *x%d, int *x%d)\n{\n", i, i, j)
		if kinds[i] == 'G' {
			fmt.Fprintf(&b, "\tint r1 = READ_ONCE(*x%d);\n\tsynchronize_rcu();\n\tWRITE_ONCE(*x%d, 1);\n}\n\n", i, j)
		} else {
			fmt.Fprintf(&b, "\trcu_read_lock();\n\tint r1 = READ_ONCE(*x%d);\n\tWRITE_ONCE(*x%d, 1);\n\trcu_read_unlock();\n}\n\n", i, j)
		}
		cond = append(cond, fmt.Sprintf("%d:r1=1", i))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}
