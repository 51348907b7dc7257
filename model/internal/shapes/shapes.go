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

// Dialect is how one architecture's litmus dialect writes the scale
// families: the same shapes as the C ones above, in its instructions.
type Dialect struct {
	// Name is herd's name of the architecture, the test's first word.
	Name string
	// init sets register reg of thread th to the address of loc.
	init func(th, reg int, loc string) string
	// st stores 1 at the address in register addr, using register val.
	st func(addr, val int) []string
	// ld loads from the address in register addr into register dst.
	ld func(dst, addr int) string
	// reg names register r in the condition.
	reg func(r int) string
}

// The dialects of the architecture benchmarks.
var (
	AArch64 = Dialect{
		Name: "AArch64",
		init: func(th, reg int, loc string) string { return fmt.Sprintf("%d:X%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("MOV W%d,#1", val), fmt.Sprintf("STR W%d,[X%d]", val, addr)}
		},
		ld:  func(dst, addr int) string { return fmt.Sprintf("LDR W%d,[X%d]", dst, addr) },
		reg: func(r int) string { return fmt.Sprintf("X%d", r) },
	}
	RISCV = Dialect{
		Name: "RISCV",
		init: func(th, reg int, loc string) string { return fmt.Sprintf("%d:x%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("ori x%d,x0,1", val), fmt.Sprintf("sw x%d,0(x%d)", val, addr)}
		},
		ld:  func(dst, addr int) string { return fmt.Sprintf("lw x%d,0(x%d)", dst, addr) },
		reg: func(r int) string { return fmt.Sprintf("x%d", r) },
	}
	PPC = Dialect{
		Name: "PPC",
		init: func(th, reg int, loc string) string { return fmt.Sprintf("%d:r%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("li r%d,1", val), fmt.Sprintf("stw r%d,0(r%d)", val, addr)}
		},
		ld:  func(dst, addr int) string { return fmt.Sprintf("lwz r%d,0(r%d)", dst, addr) },
		reg: func(r int) string { return fmt.Sprintf("r%d", r) },
	}
)

// table lays out thread columns as a litmus code table.
func table(cols [][]string) string {
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	var b strings.Builder
	var head []string
	for i := range cols {
		head = append(head, fmt.Sprintf("P%d", i))
	}
	b.WriteString(" " + strings.Join(head, " | ") + " ;\n")
	for r := 0; r < rows; r++ {
		var cells []string
		for _, c := range cols {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			cells = append(cells, cell)
		}
		b.WriteString(" " + strings.Join(cells, " | ") + " ;\n")
	}
	return b.String()
}

// SBRing is the n-thread store-buffering ring in d's dialect (SBRing's
// shape).
func (d Dialect) SBRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s SB-ring-%d\n{\n", d.Name, n)
	cols := make([][]string, n)
	var cond []string
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s; %s;\n", d.init(i, 1, fmt.Sprintf("x%d", i)), d.init(i, 2, fmt.Sprintf("x%d", (i+1)%n)))
		cols[i] = append(d.st(1, 5), d.ld(6, 2))
		cond = append(cond, fmt.Sprintf("%d:%s=0", i, d.reg(6)))
	}
	b.WriteString("}\n")
	b.WriteString(table(cols))
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// IRIW is IRIW with k readers in d's dialect (IRIW's shape; the
// condition is on the first two readers).
func (d Dialect) IRIW(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s IRIW-%d\n{\n", d.Name, k)
	fmt.Fprintf(&b, "%s; %s;\n", d.init(0, 1, "x"), d.init(1, 1, "y"))
	cols := [][]string{d.st(1, 5), d.st(1, 5)}
	var cond []string
	for r := 0; r < k; r++ {
		th := 2 + r
		a, c := "x", "y"
		if r%2 == 1 {
			a, c = "y", "x"
		}
		fmt.Fprintf(&b, "%s; %s;\n", d.init(th, 1, a), d.init(th, 2, c))
		cols = append(cols, []string{d.ld(6, 1), d.ld(7, 2)})
		if r < 2 {
			cond = append(cond, fmt.Sprintf("%d:%s=1 /\\ %d:%s=0", th, d.reg(6), th, d.reg(7)))
		}
	}
	b.WriteString("}\n")
	b.WriteString(table(cols))
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// X86SBRing is the n-thread store-buffering ring as an X86 test.
func X86SBRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "X86 SB-ring-%d\n{ }\n", n)
	var head, row1, row2, cond []string
	for i := 0; i < n; i++ {
		head = append(head, fmt.Sprintf("P%d", i))
		row1 = append(row1, fmt.Sprintf("MOV [x%d],$1", i))
		row2 = append(row2, fmt.Sprintf("MOV EAX,[x%d]", (i+1)%n))
		cond = append(cond, fmt.Sprintf("%d:EAX=0", i))
	}
	for _, r := range [][]string{head, row1, row2} {
		b.WriteString(strings.Join(r, " | ") + " ;\n")
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}
