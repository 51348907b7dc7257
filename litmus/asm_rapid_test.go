package litmus

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The generators below write instructions of the AArch64, RISCV and PPC
// dialects from the dialects' own signature tables, with random
// operands of each slot's shape, random mnemonic case and random
// spacing; the properties check that each parses to the instruction
// and the number of operands it was generated with, and survives
// print/parse unchanged.

// genSlot writes an operand for a slot code of dialect d. width is the
// width shared by AArch64 R slots, chosen by the caller.
func genSlot(t *rapid.T, d *dialect, code string, width int) string {
	sp := func() string { return rapid.SampledFrom([]string{"", " "}).Draw(t, "space") }
	num := func(lo, hi int) string {
		n := rapid.IntRange(lo, hi).Draw(t, "n")
		if n >= 0 && rapid.Bool().Draw(t, "hex") {
			return fmt.Sprintf("0x%x", n)
		}
		return fmt.Sprint(n)
	}
	switch d.arch {
	case ArchAArch64:
		wreg := func() string {
			return rapid.SampledFrom([]string{"W0", "W1", "w7", "W30", "WZR"}).Draw(t, "wreg")
		}
		xreg := func() string {
			return rapid.SampledFrom([]string{"X0", "X1", "x7", "X30", "XZR", "SP", "LR"}).Draw(t, "xreg")
		}
		base := func() string { return rapid.SampledFrom([]string{"X1", "x2", "SP"}).Draw(t, "base") }
		reg := func(w int) string {
			if w == 32 {
				return wreg()
			}
			return xreg()
		}
		imm := func() string { return "#" + num(-64, 4095) }
		shift := func(kinds ...string) string {
			return "," + sp() + rapid.SampledFrom(kinds).Draw(t, "shift") + " #" + num(0, 31)
		}
		ext := func(w int) string {
			s := reg(w)
			if w == 64 {
				s = rapid.SampledFrom([]string{"W2", "X2"}).Draw(t, "extreg")
			}
			s += "," + sp() + rapid.SampledFrom([]string{"UXTB", "UXTH", "UXTW", "UXTX", "SXTB", "SXTH", "SXTW", "sxtx"}).Draw(t, "ext")
			if rapid.Bool().Draw(t, "amount") {
				s += " #" + num(0, 4)
			}
			return s
		}
		mem := func(code string) string {
			b := "[" + sp() + base()
			switch rapid.IntRange(0, 5).Draw(t, "mem") {
			case 1:
				if code != "B" && code != "B0" {
					return b + "," + sp() + imm() + "]"
				}
				if code == "B0" {
					return b + ",#0]"
				}
			case 2:
				if code == "M" || code == "MI" {
					return b + "," + imm() + "]!"
				}
			case 3:
				if code == "M" || code == "MI" {
					return b + "]," + sp() + imm()
				}
			case 4:
				if code == "M" {
					return b + "," + rapid.SampledFrom([]string{"X3", "W3", "xzr"}).Draw(t, "index") + "]"
				}
			case 5:
				if code == "M" {
					return b + ",W3," + rapid.SampledFrom([]string{"SXTW", "UXTW #2", "SXTW #0"}).Draw(t, "iext") + "]"
				}
			}
			return b + "]"
		}
		switch code {
		case "W":
			return wreg()
		case "X":
			return xreg()
		case "R":
			return reg(width)
		case "I":
			return imm()
		case "IS":
			if rapid.Bool().Draw(t, "shifted") {
				return imm() + shift("LSL")
			}
			return imm()
		case "E", "RS":
			if code == "E" && rapid.Bool().Draw(t, "immediate") {
				return imm()
			}
			if rapid.Bool().Draw(t, "shifted") {
				return reg(width) + shift("LSL", "LSR", "ASR", "ROR")
			}
			return reg(width)
		case "XE":
			return ext(64)
		case "WE":
			return ext(32)
		case "L":
			return rapid.SampledFrom([]string{"L0", "LC01", "out", ".+4", ".-8"}).Draw(t, "label")
		case "C":
			return rapid.SampledFrom(aarch64Conds).Draw(t, "cond")
		case "D":
			return strings.ToLower(rapid.SampledFrom(aarch64Barriers).Draw(t, "barrier"))
		case "SYS":
			return rapid.SampledFrom(aarch64SysRegs).Draw(t, "sysreg")
		case "ICOP":
			return rapid.SampledFrom(aarch64ICOps).Draw(t, "icop")
		case "DCOP":
			return rapid.SampledFrom(aarch64DCOps).Draw(t, "dcop")
		case "TLBIOP":
			return rapid.SampledFrom(aarch64TLBIOps).Draw(t, "tlbiop")
		case "M", "MI", "MO", "B", "B0":
			return mem(code)
		}
	case ArchRISCV, ArchPPC:
		reg := func() string {
			if d.arch == ArchPPC {
				return rapid.SampledFrom([]string{"r0", "r1", "R9", "r31"}).Draw(t, "reg")
			}
			return rapid.SampledFrom([]string{"x0", "x5", "x31", "a0", "t6", "zero", "sp", "s11"}).Draw(t, "reg")
		}
		switch code {
		case "r":
			return reg()
		case "i":
			return num(-2048, 2047)
		case "c":
			return rapid.SampledFrom([]string{"cr0", "cr7"}).Draw(t, "cr")
		case "a", "m", "md":
			off := num(-16, 16)
			if code == "m" && rapid.Bool().Draw(t, "herdform") {
				return off + "," + sp() + reg()
			}
			if code == "a" && rapid.Bool().Draw(t, "nooffset") {
				return "(" + reg() + ")"
			}
			return off + "(" + reg() + ")"
		case "a0":
			return rapid.SampledFrom([]string{"0", ""}).Draw(t, "zero") + "(" + reg() + ")"
		case "x":
			return reg() + "," + sp() + reg()
		case "l":
			return rapid.SampledFrom([]string{"L0", "LC01", "out"}).Draw(t, "label")
		case "s":
			return rapid.SampledFrom([]string{"x", "y"}).Draw(t, "sym")
		case "f":
			return rapid.SampledFrom(riscvFenceSets).Draw(t, "fence")
		}
	}
	t.Fatalf("no generator for %s slot %q", d.arch, code)
	return ""
}

// genInstr writes one instruction of d with the given mnemonic and
// signature, and says how many operands it has.
func genInstr(t *rapid.T, d *dialect, mnemonic, sig string) (string, int) {
	op := mnemonic
	switch rapid.IntRange(0, 2).Draw(t, "case") {
	case 1:
		op = strings.ToLower(op)
	case 2:
		op = strings.ToUpper(op)
	}
	if sig == "" {
		return op, 0
	}
	width := rapid.SampledFrom([]int{32, 64}).Draw(t, "width")
	var args []string
	for _, code := range strings.Split(sig, ",") {
		args = append(args, genSlot(t, d, code, width))
	}
	sep := rapid.SampledFrom([]string{",", ", "}).Draw(t, "sep")
	return op + " " + strings.Join(args, sep), len(args)
}

func sortedMnemonics(d *dialect) []string {
	var ms []string
	for m := range d.instrs {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	return ms
}

// TestRapidAsmInstrs generates tests of two threads of random
// instructions of each dialect.
func TestRapidAsmInstrs(t *testing.T) {
	for _, d := range []*dialect{aarch64Dialect, riscvDialect, ppcDialect} {
		ms := sortedMnemonics(d)
		t.Run(string(d.arch), rapid.MakeCheck(func(t *rapid.T) {
			type gen struct {
				mnemonic string
				nargs    int
			}
			var rows [][2]string
			var want [2][]gen
			n := rapid.IntRange(1, 6).Draw(t, "rows")
			for r := 0; r < n; r++ {
				var row [2]string
				for p := 0; p < 2; p++ {
					m := rapid.SampledFrom(ms).Draw(t, "mnemonic")
					sig := rapid.SampledFrom(d.instrs[m]).Draw(t, "sig")
					text, nargs := genInstr(t, d, m, sig)
					row[p] = text
					want[p] = append(want[p], gen{m, nargs})
				}
				rows = append(rows, row)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s rapid\n{ }\n P0 | P1 ;\n", d.arch)
			for _, row := range rows {
				fmt.Fprintf(&b, " %s | %s ;\n", row[0], row[1])
			}
			b.WriteString("exists (0:x=1)\n")
			src := b.String()
			tst, err := Parse("rapid.litmus", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			for p := 0; p < 2; p++ {
				code := tst.Procs[p].Code
				if len(code) != len(want[p]) {
					t.Fatalf("P%d has %d instructions, want %d\n%s", p, len(code), len(want[p]), src)
				}
				for i, in := range code {
					if in.Mnemonic != want[p][i].mnemonic || len(in.Args) != want[p][i].nargs {
						t.Fatalf("P%d: %s read as %s with %d operands, want %s with %d\n%s", p, InstrString(in), in.Mnemonic, len(in.Args), want[p][i].mnemonic, want[p][i].nargs, src)
					}
				}
			}
			out := Format(tst)
			again, err := Parse("rapid.litmus", out)
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if dump(tst) != dump(again) {
				t.Fatalf("print/parse changed the tree:\n%s\nprinted:\n%s", src, out)
			}
		}))
	}
}

// TestEveryInstrParses writes one instruction for every mnemonic and
// signature of each dialect's table and checks that it parses: no entry
// of a table is unreachable.
func TestEveryInstrParses(t *testing.T) {
	for _, d := range []*dialect{aarch64Dialect, riscvDialect, ppcDialect} {
		for _, m := range sortedMnemonics(d) {
			for _, sig := range d.instrs[m] {
				rapid.Check(t, func(t *rapid.T) {
					text, nargs := genInstr(t, d, m, sig)
					tst, err := Parse("t.litmus", []byte(asmTest(d.arch, text)))
					if err != nil {
						t.Fatalf("%s %q: %v", d.arch, text, err)
					}
					in := tst.Procs[0].Code[0]
					if in.Mnemonic != m || len(in.Args) != nargs {
						t.Fatalf("%q read as %s with %d operands", text, in.Mnemonic, len(in.Args))
					}
				})
			}
		}
	}
	require.NotEmpty(t, aarch64Dialect.instrs)
}
