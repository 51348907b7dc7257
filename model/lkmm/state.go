package lkmm

import (
	"encoding/binary"
	"sort"
	"strconv"

	"github.com/litmus-dev/litmus/litmus"
)

// final is the final state of one execution: the value of each location
// (its co-last write) and each thread's registers.
type final struct {
	mem  []Val
	regs []map[string]Val // by thread index
}

// finalState returns x's final state under the co orders, with the values
// a cycle of copies leaves symbolic (sym) set to them.
func finalState(x *execution, orders [][]int, sym symbolic) final {
	f := final{mem: make([]Val, x.nLoc), regs: x.regs}
	for l, o := range orders {
		w := o[len(o)-1]
		f.mem[l] = x.ev[w].val
		if v, ok := sym.vals[w]; ok {
			f.mem[l] = Val{Sym: v.Sym}
		}
	}
	if sym.vals == nil {
		return f
	}
	f.regs = make([]map[string]Val, len(x.regs))
	for ti, regs := range x.regs {
		f.regs[ti] = regs
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
				f.regs[ti], copied = m, true
			}
			f.regs[ti][name] = Val{Sym: v.Sym}
		}
	}
	return f
}

// obsLoc is a location of the final section: a register or a shared
// location.
type obsLoc struct {
	th   int // thread index for a register, -1 for shared
	proc int
	name string
	loc  int // shared location index
}

func (o obsLoc) key() string {
	if o.th >= 0 {
		return strconv.Itoa(o.proc) + ":" + o.name
	}
	return "[" + o.name + "]"
}

// condEval evaluates the filter and the condition on final states and
// projects final states onto the observed locations.
type condEval struct {
	p        *program
	prop     litmus.Prop
	filter   litmus.Prop
	quant    litmus.Quant
	observed []obsLoc
	thIndex  map[int]int
}

func newCondEval(p *program) (*condEval, error) {
	c := &condEval{p: p, filter: p.test.Filter, thIndex: map[int]int{}}
	for i, th := range p.threads {
		c.thIndex[th.id] = i
	}
	if p.test.Cond != nil {
		c.prop, c.quant = p.test.Cond.Prop, p.test.Cond.Quant
	} else {
		// herd reads a missing condition as "forall true"
		// (ConstrGen.constr_true).
		c.quant = litmus.Forall
	}
	seen := map[string]bool{}
	var err error
	add := func(l *litmus.LocRef) {
		o, e := c.resolve(l)
		if e != nil {
			if err == nil {
				err = e
			}
			return
		}
		if !seen[o.key()] {
			seen[o.key()] = true
			c.observed = append(c.observed, o)
		}
	}
	for _, l := range p.test.Locations {
		add(l)
	}
	if c.prop != nil {
		eachAtom(c.prop, func(a *litmus.AtomProp) {
			add(a.Loc)
			if a.Val.Loc != nil {
				add(a.Val.Loc)
			}
		})
	}
	if err != nil {
		return nil, err
	}
	// herd's order: registers (by thread, then name), then shared
	// locations by name.
	sort.SliceStable(c.observed, func(i, j int) bool {
		a, b := c.observed[i], c.observed[j]
		if (a.th >= 0) != (b.th >= 0) {
			return a.th >= 0
		}
		if a.th >= 0 && a.proc != b.proc {
			return a.proc < b.proc
		}
		return a.name < b.name
	})
	return c, nil
}

func (c *condEval) resolve(l *litmus.LocRef) (obsLoc, error) {
	if l.Index >= 0 {
		return obsLoc{}, c.p.errorf(l.Pos(), "array elements are not supported by the LKMM engine")
	}
	if l.Proc >= 0 {
		th, ok := c.thIndex[l.Proc]
		if !ok {
			return obsLoc{}, c.p.errorf(l.Pos(), "no thread P%d", l.Proc)
		}
		return obsLoc{th: th, proc: l.Proc, name: l.Name}, nil
	}
	i, ok := c.p.index[l.Name]
	if !ok {
		return obsLoc{}, c.p.errorf(l.Pos(), "unknown location %s", l.Name)
	}
	return obsLoc{th: -1, proc: -1, name: l.Name, loc: i}, nil
}

func (c *condEval) value(o obsLoc, f final) Val {
	if o.th >= 0 {
		return f.regs[o.th][o.name] // a register never written reads 0
	}
	return f.mem[o.loc]
}

func (c *condEval) holds(pr litmus.Prop, f final) bool {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		o, err := c.resolve(pr.Loc)
		if err != nil {
			return false
		}
		v := c.value(o, f)
		var want Val
		switch {
		case pr.Val.Loc != nil:
			if o2, err := c.resolve(pr.Val.Loc); err == nil {
				want = c.value(o2, f)
			}
		case pr.Val.IsInt:
			want = intVal(pr.Val.Int)
		default:
			// herd reads a name as a symbolic constant, the address of
			// that name, distinct from every integer and every other
			// address. newProgram makes every name of the condition
			// and filter a location; a name that is none equals nothing.
			i, ok := c.p.index[pr.Val.Sym]
			if !ok {
				return pr.Op == "!="
			}
			want = addrVal(i)
		}
		if pr.Op == "!=" {
			return v != want
		}
		return v == want
	case *litmus.NotProp:
		return !c.holds(pr.X, f)
	case *litmus.ParenProp:
		return c.holds(pr.X, f)
	case *litmus.BoolProp:
		return pr.Value
	case *litmus.BinProp:
		switch pr.Op {
		case `/\`:
			return c.holds(pr.X, f) && c.holds(pr.Y, f)
		case `\/`:
			return c.holds(pr.X, f) || c.holds(pr.Y, f)
		case "=>":
			return !c.holds(pr.X, f) || c.holds(pr.Y, f)
		}
	}
	return false
}

// ok is herd's Ok/No: exists wants a positive execution, ~exists none,
// forall no negative one.
func (c *condEval) ok(pos, neg int) bool {
	switch c.quant {
	case litmus.NotExists:
		return pos == 0
	case litmus.Forall:
		return neg == 0
	}
	return pos > 0
}

// observe projects a final state onto the observed locations.
func (c *condEval) observe(f final) State {
	st := make(State, len(c.observed))
	for i, o := range c.observed {
		st[i] = Binding{Loc: o.key(), Val: c.value(o, f).format(c.p.names)}
	}
	return st
}

// key appends a compact encoding of the observed values of f to buf.
func (c *condEval) key(f final, buf []byte) []byte {
	for _, o := range c.observed {
		v := c.value(o, f)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Sym))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v.N))
	}
	return buf
}

// stateLess orders states as herd does: location by location, symbolic
// values first, then integers numerically, then addresses by name.
func (c *condEval) stateLess(a, b State) bool {
	for i := range a {
		if a[i].Val == b[i].Val {
			continue
		}
		as, aok := c.symbolic(a[i].Val)
		bs, bok := c.symbolic(b[i].Val)
		switch {
		case aok && bok:
			return as < bs
		case aok != bok:
			return aok
		}
		ai, aerr := strconv.ParseInt(a[i].Val, 10, 64)
		bi, berr := strconv.ParseInt(b[i].Val, 10, 64)
		switch {
		case aerr == nil && berr == nil:
			return ai < bi
		case aerr == nil:
			return true
		case berr == nil:
			return false
		}
		return a[i].Val < b[i].Val
	}
	return false
}

// symbolic reports whether a printed value is a symbolic value S<n> (and
// not a location of that name), with n.
func (c *condEval) symbolic(s string) (int, bool) {
	if len(s) < 2 || s[0] != 'S' {
		return 0, false
	}
	if _, isLoc := c.p.index[s]; isLoc {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	return n, err == nil
}
