package litmus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoldenAsm dumps the typed operands of each assembly test
// testdata/parse/X.litmus of the AArch64, RISCV and PPC dialects and
// compares the dump with X.litmus.ast; -update rewrites the files.
// TestGoldenPrint checks the printed text of the same files.
func TestGoldenAsm(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*.litmus")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		tst, err := ParseFile(f)
		require.NoError(t, err)
		if dialectOf(tst.Arch) == nil {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := asmDump(tst)
			golden := f + ".ast"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "missing golden file; run go test ./litmus -run TestGoldenAsm -update")
			require.Equal(t, string(want), got, "operand dump differs from %s", golden)
		})
	}
	require.NotZero(t, n, "no AArch64, RISCV or PPC test in testdata/parse")
}

// asmDump writes one line per instruction: the source line and column,
// the mnemonic as written and normalised, then each operand's kind and
// fields.
func asmDump(t *Test) string {
	var b strings.Builder
	for _, p := range t.Procs {
		fmt.Fprintf(&b, "P%d\n", p.ID)
		for _, in := range p.Code {
			pos := t.File.Position(in.Pos())
			fmt.Fprintf(&b, "  %d:%d ", pos.Line, pos.Column)
			if in.Op == "" {
				fmt.Fprintf(&b, "label %s\n", in.Label)
				continue
			}
			fmt.Fprintf(&b, "%s (%s)", in.Op, in.Mnemonic)
			for _, a := range in.Args {
				fmt.Fprintf(&b, " | %s", operandDump(a))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func regDump(r *Register) string {
	s := fmt.Sprintf("%s/%d", r.Name, r.Width)
	if r.Text != r.Name {
		s += "=" + r.Text
	}
	return s
}

func operandDump(o *Operand) string {
	switch o.Kind {
	case OpdReg:
		return "reg " + regDump(o.R)
	case OpdImm:
		if o.Shift != "" {
			return fmt.Sprintf("imm %d %s %d", o.Imm, o.Shift, o.Amount)
		}
		return fmt.Sprintf("imm %d", o.Imm)
	case OpdShiftedReg:
		return fmt.Sprintf("shifted %s %s %d", regDump(o.R), o.Shift, o.Amount)
	case OpdExtendedReg:
		return fmt.Sprintf("extended %s %s %d", regDump(o.R), o.Shift, o.Amount)
	case OpdMem:
		m := o.Mem
		s := "mem base " + regDump(&m.Base)
		if m.Index != nil {
			s += " index " + regDump(m.Index)
			if m.Extend != "" {
				s += fmt.Sprintf(" %s %d", m.Extend, m.Amount)
			}
		} else {
			s += fmt.Sprintf(" offset %d", m.Offset)
		}
		switch m.Mode {
		case AddrPreIndex:
			s += " pre-index"
		case AddrPostIndex:
			s += " post-index"
		}
		return s
	case OpdLabel:
		if o.Label == "." {
			return fmt.Sprintf("label .%+d", o.Imm)
		}
		return "label " + o.Label
	case OpdCond:
		return "cond " + o.Cond
	case OpdBarrier:
		return "barrier " + o.Barrier
	case OpdFenceSet:
		return "fence " + o.Fence
	case OpdSys:
		return "sys " + o.Sys
	case OpdSym:
		return "sym " + o.Sym
	}
	return fmt.Sprintf("kind %d", o.Kind)
}

// TestPreludeComments: before the init block of an assembly test, herd's
// splitter reads a line as text, so "(* text" needs no "*)"; "(*" at the
// end of a line opens a comment, which may hide a '{'.
func TestPreludeComments(t *testing.T) {
	src := "RISCV pc\n(*\n a { brace\n*)\n(* open, never closed\n{\n0:x6=x;\n}\n P0          ;\n lw x5,0(x6) ;\nexists (0:x5=0)\n"
	tst, err := Parse("pc.litmus", []byte(src))
	require.NoError(t, err)
	require.Len(t, tst.Procs, 1)
	require.Len(t, tst.Init, 1)
}

// TestHeaderText: in an assembly test herd's splitter takes what it does
// not understand on the header line, and a '"' that nothing closes, as
// text of the prelude (herd's power-tests campaign has "PPC mbl
// (PPCMElevenLwsync )" and b5's unterminated doc string).
func TestHeaderText(t *testing.T) {
	for _, src := range []string{
		"PPC mbl (PPCMElevenLwsync )\n{\n0:r4=x;\n}\n P0           ;\n lwz r1,0(r4) ;\nexists (0:r1=0)\n",
		"PPC b5 (BasicFive)\n\"Simple sync test, barrier and no sync on loads\n{0:r4=x;}\n P0           ;\n lwz r1,0(r4) ;\nexists (0:r1=0)\n",
	} {
		tst, err := Parse("h.litmus", []byte(src))
		require.NoError(t, err, src)
		require.Len(t, tst.Init, 1)
		again, err := Parse("h.litmus", Format(tst))
		require.NoError(t, err, string(Format(tst)))
		require.Len(t, again.Init, 1)
	}
}

// TestLocationTypes: herd's locations clause may give a location a type
// ("x int64_t", "0:r5*"); litmus fmt keeps it.
func TestLocationTypes(t *testing.T) {
	src := "PPC lt\n{\n0:r4=x;\n}\n P0           ;\n lwz r1,0(r4) ;\nlocations [0:r4*; x int64_t; 0:r1;]\nexists (0:r1=0)\n"
	tst, err := Parse("lt.litmus", []byte(src))
	require.NoError(t, err)
	require.Len(t, tst.Locations, 3)
	require.Equal(t, "*", tst.Locations[0].Type)
	require.Equal(t, "int64_t", tst.Locations[1].Type)
	require.Equal(t, "", tst.Locations[2].Type)
	require.Contains(t, string(Format(tst)), "locations [0:r4*; x int64_t; 0:r1]")
}

// TestSymbolicRegisters: herd's symbolic registers (%x0) in the init
// block and as operands of assembly tests; litmus fmt keeps them.
func TestSymbolicRegisters(t *testing.T) {
	src := "PPC sym\n{\n%x0=x; 0:r2=y;\n}\n P0             ;\n lwz r1,0(%x0)  ;\n lwzx r3,r2,%x0 ;\nexists (0:r1=0)\n"
	tst, err := Parse("sym.litmus", []byte(src))
	require.NoError(t, err)
	require.Equal(t, "%x0", tst.Init[0].Name)
	require.Equal(t, -1, tst.Init[0].Proc)
	require.Equal(t, "%x0", tst.Procs[0].Code[0].Args[1].Mem.Base.Name)
	require.Contains(t, string(Format(tst)), "%x0=x")
	_, err = Parse("c.litmus", []byte("C c\n{ %x0=x; }\nP0(int *x) { }\nexists (x=0)\n"))
	require.Error(t, err, "a C test has no symbolic registers")
}
