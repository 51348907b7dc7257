package lkmm

import (
	"github.com/litmus-dev/litmus/model/axiom"
)

// The final states, the condition and the filter are evaluated by
// package axiom's CondEval, as for every axiomatic model.

// finalState returns x's final state under the co orders, with the values
// a cycle of copies leaves symbolic (sym) set to them.
func finalState(x *execution, orders [][]int, sym symbolic) axiom.Final {
	f := axiom.Final{Mem: make([]Val, x.nLoc), Regs: x.regs}
	for l, o := range orders {
		w := o[len(o)-1]
		f.Mem[l] = x.ev[w].val
		if v, ok := sym.vals[w]; ok {
			f.Mem[l] = v
		}
	}
	if sym.vals == nil {
		return f
	}
	f.Regs = make([]map[string]Val, len(x.regs))
	for ti, regs := range x.regs {
		f.Regs[ti] = regs
		fl := sym.flows.Flows[ti]
		if fl == nil {
			continue
		}
		copied := false
		for name, r := range fl.Regs {
			v, ok := sym.vals[sym.flows.Start[ti]+r]
			if !ok {
				continue
			}
			if !copied {
				m := make(map[string]Val, len(regs))
				for k, w := range regs {
					m[k] = w
				}
				f.Regs[ti], copied = m, true
			}
			f.Regs[ti][name] = v
		}
	}
	return f
}

// newCondEval returns the evaluator of p's final section.
func newCondEval(p *program) (*axiom.CondEval, error) {
	return axiom.NewCondEval(p.axiomProgram(0, nil))
}
