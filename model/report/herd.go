package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/x86asm"
)

// This file prints a test's condition as herd7 does.

// PropString prints a proposition as herd does in its "Condition" line:
// locations of memory in brackets, "not (...)" for negation, and
// parentheses around an operand whose operator differs from its parent's.
func PropString(pr litmus.Prop, arch litmus.Arch) string {
	var b strings.Builder
	writeProp(&b, pr, "", arch)
	return b.String()
}

// writeProp writes pr into one buffer, so that a long chain of conjuncts
// prints in linear time.
func writeProp(b *strings.Builder, pr litmus.Prop, parent string, arch litmus.Arch) {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		if pr.Op == "!=" {
			b.WriteString("not (")
		}
		b.WriteString(locRefString(pr.Loc, arch))
		b.WriteString("=")
		b.WriteString(valueString(pr.Val, arch))
		if pr.Op == "!=" {
			b.WriteString(")")
		}
	case *litmus.NotProp:
		b.WriteString("not (")
		writeProp(b, pr.X, "", arch)
		b.WriteString(")")
	case *litmus.ParenProp:
		writeProp(b, pr.X, parent, arch)
	case *litmus.BoolProp:
		if pr.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *litmus.BinProp:
		paren := herdParen(parent, pr.Op)
		if paren {
			b.WriteString("(")
		}
		writeProp(b, pr.X, pr.Op, arch)
		b.WriteString(" " + pr.Op + " ")
		writeProp(b, pr.Y, pr.Op, arch)
		if paren {
			b.WriteString(")")
		}
	default:
		b.WriteString("?")
	}
}

// herdParen reports whether herd's printer (lib/constrGen.ml, is_paren)
// puts parentheses around an operand with operator op whose parent's
// operator is parent ("" at the top): "/\" binds tighter than "\/", and
// both tighter than "=>", which herd chains without parentheses.
func herdParen(parent, op string) bool {
	switch parent {
	case "":
		return false
	case "=>":
		return op != "=>"
	case `/\`:
		return op != `/\`
	case `\/`:
		return op == "=>"
	}
	return true
}

func locRefString(l *litmus.LocRef, arch litmus.Arch) string {
	if l.Proc >= 0 {
		if arch == litmus.ArchX8664 {
			return fmt.Sprintf("%d:%s", l.Proc, x86asm.CanonReg(l.Name))
		}
		if arch == litmus.ArchRISCV || arch == litmus.ArchPPC {
			// herd prints a0 as x10, R1 as r1.
			if r, ok := litmus.ArchRegister(arch, l.Name); ok {
				return fmt.Sprintf("%d:%s", l.Proc, r.Name)
			}
		}
		return fmt.Sprintf("%d:%s", l.Proc, l.Name)
	}
	if l.Index >= 0 {
		return fmt.Sprintf("%s[%d]", l.Name, l.Index)
	}
	return "[" + l.Name + "]"
}

func valueString(v *litmus.Value, arch litmus.Arch) string {
	switch {
	case v.Loc != nil:
		return locRefString(v.Loc, arch)
	case v.IsInt:
		return strconv.FormatInt(v.Int, 10)
	}
	return v.Sym
}

// condString prints the test's condition as herd does: a test without
// one (only a locations clause) is herd's "forall (true)".
func condString(c *litmus.Cond, arch litmus.Arch) string {
	if c == nil {
		return "forall (true)"
	}
	return string(c.Quant) + " (" + strings.TrimSpace(PropString(c.Prop, arch)) + ")"
}

// testKind is herd's word for the test's quantifier: Allowed (exists),
// Forbidden (~exists), Required (forall, and a test without condition).
func testKind(t *litmus.Test) string {
	if t.Cond == nil {
		return "Required"
	}
	return map[litmus.Quant]string{litmus.Exists: "Allowed", litmus.NotExists: "Forbidden", litmus.Forall: "Required"}[t.Cond.Quant]
}

// Observed is an observed location as herd orders the columns of a state
// line: Reg, with its thread (Proc) and name, or memory by Name.
type Observed struct {
	Reg  bool
	Proc int
	Name string
}

// Less reports whether a comes before b in herd's order: registers
// first, by thread then name, then memory by name. The operational
// engine and litmus run's histogram order their columns by it.
func (a Observed) Less(b Observed) bool {
	if a.Reg != b.Reg {
		return a.Reg
	}
	if a.Reg && a.Proc != b.Proc {
		return a.Proc < b.Proc
	}
	return a.Name < b.Name
}
