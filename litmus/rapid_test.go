package litmus

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The generators below write small random litmus tests as text, from the
// grammar the parser accepts; the properties check that each parses and
// survives print/parse unchanged.

var (
	genReg   = rapid.SampledFrom([]string{"r0", "r1", "r2"})
	genLoc   = rapid.SampledFrom([]string{"x", "y"})
	genConst = rapid.SampledFrom([]string{"0", "1", "2", "-1", "0x10", "7UL"})
)

func genExpr(t *rapid.T, depth int) string {
	if depth <= 0 {
		switch rapid.IntRange(0, 3).Draw(t, "leaf") {
		case 0:
			return genReg.Draw(t, "reg")
		case 1:
			return genConst.Draw(t, "const")
		case 2:
			return "READ_ONCE(*" + genLoc.Draw(t, "loc") + ")"
		default:
			return "smp_load_acquire(" + genLoc.Draw(t, "loc") + ")"
		}
	}
	switch rapid.IntRange(0, 5).Draw(t, "expr") {
	case 0:
		op := rapid.SampledFrom([]string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}).Draw(t, "binop")
		return genExpr(t, depth-1) + " " + op + " " + genExpr(t, depth-1)
	case 1:
		op, x := rapid.SampledFrom([]string{"-", "!", "~"}).Draw(t, "unop"), genExpr(t, depth-1)
		if op == "-" && strings.HasPrefix(x, "-") {
			x = " " + x // not the -- operator
		}
		return op + x
	case 2:
		return "(" + genExpr(t, depth-1) + ")"
	case 3:
		return genExpr(t, depth-1) + " ? " + genExpr(t, depth-1) + " : " + genExpr(t, depth-1)
	case 4:
		return "cmpxchg(" + genLoc.Draw(t, "loc") + ", " + genExpr(t, depth-1) + ", " + genExpr(t, depth-1) + ")"
	}
	return genExpr(t, 0)
}

func genStmt(t *rapid.T, depth int) string {
	n := 5
	if depth > 0 {
		n = 9
	}
	switch rapid.IntRange(0, n).Draw(t, "stmt") {
	case 0:
		return genReg.Draw(t, "reg") + " = " + genExpr(t, 2) + ";"
	case 1:
		return "WRITE_ONCE(*" + genLoc.Draw(t, "loc") + ", " + genExpr(t, 1) + ");"
	case 2:
		return rapid.SampledFrom([]string{"smp_mb();", "smp_rmb();", "smp_wmb();", "barrier();", "smp_mb__after_atomic();"}).Draw(t, "fence")
	case 3:
		return genReg.Draw(t, "reg") + rapid.SampledFrom([]string{" += 1;", "++;", "--;", " <<= 2;"}).Draw(t, "op")
	case 4:
		return "(void)xchg(" + genLoc.Draw(t, "loc") + ", " + genExpr(t, 1) + ");"
	case 5:
		return "*" + genLoc.Draw(t, "loc") + " = " + genExpr(t, 1) + ";"
	case 6:
		s := "if (" + genExpr(t, 1) + ") " + genBlock(t, depth-1)
		if rapid.Bool().Draw(t, "else") {
			s += " else " + genStmt(t, depth-1)
		}
		return s
	case 7:
		return "while (" + genExpr(t, 1) + ") " + genStmt(t, depth-1)
	case 8:
		return "do " + genBlock(t, depth-1) + " while (" + genExpr(t, 1) + ");"
	default:
		return "for (int i = 0; i < 2; i++) " + genBlock(t, depth-1)
	}
}

func genBlock(t *rapid.T, depth int) string {
	n := rapid.IntRange(0, 3).Draw(t, "len")
	var b strings.Builder
	b.WriteString("{\n")
	for i := 0; i < n; i++ {
		b.WriteString(genStmt(t, depth) + "\n")
	}
	b.WriteString("}")
	return b.String()
}

func genProp(t *rapid.T, depth int) string {
	if depth <= 0 || rapid.IntRange(0, 2).Draw(t, "atom?") == 0 {
		lhs := rapid.SampledFrom([]string{"x", "[y]", "0:r0", "1:r1", "t[1]"}).Draw(t, "lhs")
		op := rapid.SampledFrom([]string{"=", "!="}).Draw(t, "op")
		rhs := rapid.SampledFrom([]string{"0", "1", "-2", "x", "0:r1", "[y]"}).Draw(t, "rhs")
		return lhs + op + rhs
	}
	switch rapid.IntRange(0, 3).Draw(t, "prop") {
	case 0:
		return "~" + genProp(t, depth-1)
	case 1:
		return "(" + genProp(t, depth-1) + ")"
	case 2:
		return rapid.SampledFrom([]string{"true", "false"}).Draw(t, "bool")
	}
	op := rapid.SampledFrom([]string{`/\`, `\/`, "=>"}).Draw(t, "binop")
	return genProp(t, depth-1) + " " + op + " " + genProp(t, depth-1)
}

func genCTest(t *rapid.T) string {
	var b strings.Builder
	b.WriteString("C gen+" + rapid.StringMatching(`[a-z0-9.=+-]{1,8}`).Draw(t, "name") + "\n")
	if rapid.Bool().Draw(t, "comment") {
		b.WriteString("(*\n * Result: " + rapid.SampledFrom([]string{"Never", "Sometimes"}).Draw(t, "result") + "\n *)\n")
	}
	b.WriteString("{\n")
	for _, item := range rapid.SliceOfN(rapid.SampledFrom([]string{"x=1", "int y = 2", "int *p = &x", "q=y", "atomic_t a = ATOMIC_INIT(1)", "0:r1=2", "int t[2]", "spinlock_t l"}), 0, 4).Draw(t, "init") {
		b.WriteString("\t" + item + ";\n")
	}
	b.WriteString("}\n\n")
	procs := rapid.IntRange(1, 3).Draw(t, "procs")
	for i := 0; i < procs; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0;\n\tint r1 = 0, r2;\n\n", i)
		for j, n := 0, rapid.IntRange(0, 4).Draw(t, "stmts"); j < n; j++ {
			b.WriteString("\t" + genStmt(t, 2) + "\n")
		}
		b.WriteString("}\n\n")
	}
	if rapid.Bool().Draw(t, "locations") {
		b.WriteString("locations [x; 0:r0;]\n")
	}
	if rapid.Bool().Draw(t, "invariant") {
		b.WriteString("invariant (" + genProp(t, 2) + ")\n")
	}
	q := rapid.SampledFrom([]string{"exists", "~exists", "forall"}).Draw(t, "quant")
	b.WriteString(q + " (" + genProp(t, 3) + ")\n")
	return b.String()
}

func genX86Test(t *rapid.T) string {
	intel := rapid.Bool().Draw(t, "intel")
	var instrs []string
	arch := "X86_64"
	if intel {
		arch = "X86"
		instrs = []string{"MOV [x],$1", "MOV EAX,[y]", "MFENCE", "XCHG [x],EAX", "LOCK ADD [x],$1", "LOCK XADD [y],EBX", "LOCK CMPXCHG [x],ECX", "MOV EAX,[x+ECX*4+8]"}
	} else {
		instrs = []string{"movl $1,(x)", "movl (y),%eax", "mfence", "xchgl (y),%eax", "lock addl $1,(x)", "movq 0(%rax,%rbx,8),%rcx", "nopl %cs:0(%rax,%eax,0)", "L1:", "je L1", "shl 2,%eax", "cmp $1,%eax"}
	}
	procs := rapid.IntRange(1, 3).Draw(t, "procs")
	cols := make([][]string, procs)
	var b strings.Builder
	b.WriteString(arch + " gen\n\"a doc\"\nCycle=Fre PodWR\n{ x=0; [y]=0; 0:EAX=1; }\n")
	var rows []string
	hdr := []string{}
	for i := range cols {
		cols[i] = rapid.SliceOfN(rapid.SampledFrom(instrs), 0, 4).Draw(t, "code")
		hdr = append(hdr, fmt.Sprintf("P%d", i))
	}
	rows = append(rows, strings.Join(hdr, " | ")+" ;")
	for r := 0; ; r++ {
		var cells []string
		any := false
		for i := range cols {
			if r < len(cols[i]) {
				cells = append(cells, cols[i][r])
				any = true
			} else {
				cells = append(cells, "")
			}
		}
		if !any {
			break
		}
		rows = append(rows, strings.Join(cells, " | ")+" ;")
	}
	b.WriteString(strings.Join(rows, "\n") + "\n")
	b.WriteString("exists (" + strings.NewReplacer("0:r0", "0:EAX", "1:r1", "1:EBX").Replace(genProp(t, 2)) + ")\n")
	return b.String()
}

// TestRapidRoundTrip: generated tests parse, and print/parse preserves
// their tree.
func TestRapidRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var src string
		if rapid.IntRange(0, 2).Draw(rt, "dialect") == 0 {
			src = genX86Test(rt)
		} else {
			src = genCTest(rt)
		}
		tst, err := Parse("gen.litmus", []byte(src))
		if err != nil {
			rt.Fatalf("generated test does not parse: %v\n%s", err, src)
		}
		out := Format(tst)
		again, err := Parse("gen.litmus", out)
		if err != nil {
			rt.Fatalf("printed test does not parse: %v\n%s", err, out)
		}
		if dump(tst) != dump(again) {
			rt.Fatalf("print/parse changed the tree:\n%s\nprinted:\n%s", src, out)
		}
		if string(Format(again)) != string(out) {
			rt.Fatalf("printing is not idempotent:\n%s", out)
		}
	})
}
