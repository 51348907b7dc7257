package litmus

import "strings"

// lisaTable prints LISA code as aligned columns, one instruction per row,
// in herd's spelling: brackets after r, w, f, rmw and b even when empty.
func (pr *printer) lisaTable() {
	pr.columns(func(p *Proc) (cells []string) {
		for _, in := range p.LISA {
			cells = append(cells, LISAInstrString(in))
		}
		return cells
	})
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
