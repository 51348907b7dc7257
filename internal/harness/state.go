package harness

import (
	"fmt"
	"sort"

	"github.com/litmus-dev/litmus/litmus"
)

// colKey is the column name of a location reference, as buildColumns
// names columns.
func (p *program) colKey(l *litmus.LocRef) string {
	if l.Proc >= 0 {
		txt := l.Name
		if p.test.Arch == litmus.ArchX8664 {
			txt, _ = canonReg(l.Name)
		}
		return fmt.Sprintf("%d:%s", l.Proc, txt)
	}
	if l.Index >= 0 {
		return fmt.Sprintf("[%s[%d]]", l.Name, l.Index)
	}
	return "[" + l.Name + "]"
}

// evalProp evaluates a proposition of the final section on a state given
// column by column; colOf maps column names to indexes.
func (p *program) evalProp(pr litmus.Prop, vals []Value, colOf map[string]int) bool {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		x := vals[colOf[p.colKey(pr.Loc)]]
		var y Value
		switch {
		case pr.Val.Loc != nil:
			y = vals[colOf[p.colKey(pr.Val.Loc)]]
		case pr.Val.IsInt:
			y = Value{Int: pr.Val.Int}
		default:
			y = Value{Sym: pr.Val.Sym}
			if v, e, ok := p.elemOf(pr.Val.Sym); ok {
				y.Sym = v.elemName(e)
			}
		}
		eq := x == y
		if pr.Op == "!=" {
			return !eq
		}
		return eq
	case *litmus.NotProp:
		return !p.evalProp(pr.X, vals, colOf)
	case *litmus.ParenProp:
		return p.evalProp(pr.X, vals, colOf)
	case *litmus.BoolProp:
		return pr.Value
	case *litmus.BinProp:
		x := p.evalProp(pr.X, vals, colOf)
		y := p.evalProp(pr.Y, vals, colOf)
		switch pr.Op {
		case `/\`:
			return x && y
		case `\/`:
			return x || y
		case "=>":
			return !x || y
		}
	}
	return false
}

// sortStates sorts states as the model sorts its final states: column by
// column, integers before addresses, integers by value, addresses by name.
func sortStates(ss []State) {
	sort.Slice(ss, func(i, j int) bool {
		a, b := ss[i].Values, ss[j].Values
		for k := range a {
			x, y := a[k], b[k]
			if x == y {
				continue
			}
			switch {
			case x.Sym != "" && y.Sym != "":
				return x.Sym < y.Sym
			case (x.Sym != "") != (y.Sym != ""):
				return y.Sym != ""
			}
			return x.Int < y.Int
		}
		return false
	})
}
