package arch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

// The benchmarks of the architecture models: each shared AArch64, RISC-V
// and POWER test under its architecture's model, and two scale families
// per architecture, the store-buffering ring (thread i writes x_i then
// reads x_{i+1}) and IRIW with k readers (two writers, readers reading the
// two locations in alternating orders). One iteration is one complete
// Check (events, domains, candidates, the cat model), as litmus check runs
// it. docs/performance.md records them beside herd7 7.58 on the same
// files: with LITMUS_BENCH_DIR set, the generated tests are written there
// for herd (docs/run-herd-bench.sh).

// archFamily writes the tests of one architecture's dialect.
type archFamily struct {
	name  string // the corpus folder name and Check model
	model model.Model
	dirs  []string
	// header, store, load, reg: how the dialect writes a test.
	header string
	init   func(th, reg int, loc string) string // "0:X1=x"
	st     func(addr, val int) []string         // store #1 at the location in register addr, using val
	ld     func(dst, addr int) string
	regOut func(r int) string // a register in the condition
}

var archFamilies = []archFamily{
	{
		name: "aarch64", model: model.AArch64, dirs: []string{"arch/aarch64/herd/catalogue", "arch/aarch64/dat3m"},
		header: "AArch64",
		init:   func(th, reg int, loc string) string { return fmt.Sprintf("%d:X%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("MOV W%d,#1", val), fmt.Sprintf("STR W%d,[X%d]", val, addr)}
		},
		ld:     func(dst, addr int) string { return fmt.Sprintf("LDR W%d,[X%d]", dst, addr) },
		regOut: func(r int) string { return fmt.Sprintf("X%d", r) },
	},
	{
		name: "riscv", model: model.RISCV, dirs: []string{"arch/riscv/dat3m"},
		header: "RISCV",
		init:   func(th, reg int, loc string) string { return fmt.Sprintf("%d:x%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("ori x%d,x0,1", val), fmt.Sprintf("sw x%d,0(x%d)", val, addr)}
		},
		ld:     func(dst, addr int) string { return fmt.Sprintf("lw x%d,0(x%d)", dst, addr) },
		regOut: func(r int) string { return fmt.Sprintf("x%d", r) },
	},
	{
		name: "ppc", model: model.PPC, dirs: []string{"arch/ppc/dat3m"},
		header: "PPC",
		init:   func(th, reg int, loc string) string { return fmt.Sprintf("%d:r%d=%s", th, reg, loc) },
		st: func(addr, val int) []string {
			return []string{fmt.Sprintf("li r%d,1", val), fmt.Sprintf("stw r%d,0(r%d)", val, addr)}
		},
		ld:     func(dst, addr int) string { return fmt.Sprintf("lwz r%d,0(r%d)", dst, addr) },
		regOut: func(r int) string { return fmt.Sprintf("r%d", r) },
	},
}

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

// sbRing is the n-thread store-buffering ring in f's dialect.
func (f archFamily) sbRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s SB-ring-%d\n{\n", f.header, n)
	cols := make([][]string, n)
	var cond []string
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s; %s;\n", f.init(i, 1, fmt.Sprintf("x%d", i)), f.init(i, 2, fmt.Sprintf("x%d", (i+1)%n)))
		cols[i] = append(f.st(1, 5), f.ld(6, 2))
		cond = append(cond, fmt.Sprintf("%d:%s=0", i, f.regOut(6)))
	}
	b.WriteString("}\n")
	b.WriteString(table(cols))
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// iriw is IRIW with k readers: two writers of x and y, readers reading
// x then y and y then x in turn.
func (f archFamily) iriw(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s IRIW-%d\n{\n", f.header, k)
	fmt.Fprintf(&b, "%s; %s;\n", f.init(0, 1, "x"), f.init(1, 1, "y"))
	cols := [][]string{f.st(1, 5), f.st(1, 5)}
	var cond []string
	for r := 0; r < k; r++ {
		th := 2 + r
		a, c := "x", "y"
		if r%2 == 1 {
			a, c = "y", "x"
		}
		fmt.Fprintf(&b, "%s; %s;\n", f.init(th, 1, a), f.init(th, 2, c))
		cols = append(cols, []string{f.ld(6, 1), f.ld(7, 2)})
		if r < 2 {
			cond = append(cond, fmt.Sprintf("%d:%s=1 /\\ %d:%s=0", th, f.regOut(6), th, f.regOut(7)))
		}
	}
	b.WriteString("}\n")
	b.WriteString(table(cols))
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// benchTests checks tests once per iteration under m.
func benchTests(b *testing.B, m model.Model, tests []*litmus.Test) {
	b.Helper()
	for i := 0; i < b.N; i++ {
		for _, t := range tests {
			r, err := model.Check(context.Background(), t, m, model.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if r.Verdict == model.Unknown {
				b.Fatalf("%s: Unknown: %s", t.Name, r.Reason)
			}
		}
	}
}

// writeForHerd saves a generated test where LITMUS_BENCH_DIR says.
func writeForHerd(b *testing.B, arch, name, src string) {
	dir := os.Getenv("LITMUS_BENCH_DIR")
	if dir == "" {
		return
	}
	d := filepath.Join(dir, arch)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, name+".litmus"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkArch(b *testing.B) {
	for _, f := range archFamilies {
		var corpusTests []*litmus.Test
		for _, d := range f.dirs {
			filepath.Walk(filepath.Join(corpus, d), func(p string, fi os.FileInfo, err error) error {
				if err == nil && strings.HasSuffix(p, ".litmus") && !strings.Contains(p, "/mixed/") {
					if src, err := os.ReadFile(p); err == nil {
						if t, err := litmus.Parse(p, src); err == nil {
							// herd answers every one of them but one,
							// which both reject.
							if _, err := model.Check(context.Background(), t, f.model, model.Options{}); err == nil {
								corpusTests = append(corpusTests, t)
							}
						}
					}
				}
				return nil
			})
		}
		if len(corpusTests) > 0 {
			b.Run(f.name+"/corpus", func(b *testing.B) { benchTests(b, f.model, corpusTests) })
		}
		for _, n := range []int{4, 6, 8} {
			src := f.sbRing(n)
			writeForHerd(b, f.name, fmt.Sprintf("SB-ring-%d", n), src)
			t, err := litmus.Parse("sb.litmus", []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/SBring%d", f.name, n), func(b *testing.B) { benchTests(b, f.model, []*litmus.Test{t}) })
		}
		for _, k := range []int{2, 3, 4} {
			src := f.iriw(k)
			writeForHerd(b, f.name, fmt.Sprintf("IRIW-%d", k), src)
			t, err := litmus.Parse("iriw.litmus", []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/IRIW%d", f.name, k), func(b *testing.B) { benchTests(b, f.model, []*litmus.Test{t}) })
		}
	}
}
