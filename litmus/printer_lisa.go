package litmus

import (
	"fmt"
	"strings"
)

// lisaTable prints LISA code as aligned columns, one instruction per row,
// in herd's spelling: brackets after r, w, f, rmw and b even when empty.
func (pr *printer) lisaTable() {
	t := pr.t
	cols := make([][]string, len(t.Procs))
	rows := 0
	for i, p := range t.Procs {
		cols[i] = append(cols[i], fmt.Sprintf("P%d", p.ID))
		for _, in := range p.LISA {
			cols[i] = append(cols[i], LISAInstrString(in))
		}
		rows = max(rows, len(cols[i]))
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		for _, s := range c {
			widths[i] = max(widths[i], len(s))
		}
	}
	for r := 0; r < rows; r++ {
		var line strings.Builder
		for i, c := range cols {
			s := ""
			if r < len(c) {
				s = c[r]
			}
			if i > 0 {
				line.WriteString(" |")
			}
			line.WriteString(" " + s + strings.Repeat(" ", widths[i]-len(s)))
		}
		pr.printf("%s ;\n", line.String())
	}
}

// LISAInstrString formats one LISA instruction or label as herd prints it.
func LISAInstrString(in *LISAInstr) string {
	if in.Op == "" {
		return in.Label + ":"
	}
	annots := "[" + strings.Join(in.Annots, ",") + "]"
	switch in.Op {
	case "r":
		return "r" + annots + " " + in.Reg + " " + lisaAddrString(in.Addr)
	case "w":
		return "w" + annots + " " + lisaAddrString(in.Addr) + " " + in.Val.Text
	case "f":
		s := "f" + annots
		if in.FenceSets {
			s += " {" + strings.Join(in.From, ",") + "} {" + strings.Join(in.To, ",") + "}"
		}
		return s
	case "call":
		return "call" + annots
	case "rmw":
		return "rmw" + annots + " " + in.Reg + " " + lisaExprString(in.Expr) + " " + lisaAddrString(in.Addr)
	case "b":
		if in.Reg != "" {
			return "b" + annots + " " + in.Reg + " " + in.Target
		}
		return "b" + annots + " " + in.Target
	case "mov":
		return "mov " + in.Reg + " " + lisaExprString(in.Expr)
	}
	return in.Op
}

func lisaAddrString(a *LISAAddr) string {
	if a.Off != nil {
		return a.Base.Text + "+" + a.Off.Text
	}
	return a.Base.Text
}

func lisaExprString(e *LISAExpr) string {
	if e.Op == "" {
		return e.X.Text
	}
	return "(" + e.Op + " " + e.X.Text + " " + e.Y.Text + ")"
}
