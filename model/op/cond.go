package op

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// locKey names something a proposition can observe: a register of a
// thread, or a shared location. In a state that is not final, a location
// reads as its value in memory (buffered stores are not yet visible to
// other threads), and a register a thread has not assigned yet as its
// initial value.
type locKey struct {
	reg    bool
	t, r   int // thread index and register number, for a register
	loc    int // location index, for memory
	name   string
	proc   int // the thread's N, for sorting and printing
	regTxt string
}

func (k locKey) get(s *mstate) val {
	if k.reg {
		return s.th[k.t].regs[k.r]
	}
	return s.mem[k.loc]
}

// String prints the key as herd does in states: "0:r0", "[x]".
func (k locKey) String() string {
	if k.reg {
		return fmt.Sprintf("%d:%s", k.proc, k.regTxt)
	}
	return "[" + k.name + "]"
}

// lookupLoc resolves a location reference of the final section.
func (p *program) lookupLoc(l *litmus.LocRef) (locKey, error) {
	pos := p.test.File.Position(l.Pos())
	if l.Proc >= 0 {
		for ti, th := range p.threads {
			if th.id != l.Proc {
				continue
			}
			key := l.Name
			txt := l.Name
			if p.test.Arch != litmus.ArchC {
				key = canonReg(l.Name)
				if p.test.Arch == litmus.ArchX8664 {
					txt = key
				}
			}
			r, ok := th.alias[key]
			if !ok {
				return locKey{}, &litmus.Error{Pos: pos, Msg: fmt.Sprintf("P%d has no register %s", l.Proc, l.Name)}
			}
			return locKey{reg: true, t: ti, r: r, proc: th.id, regTxt: txt, name: key}, nil
		}
		return locKey{}, &litmus.Error{Pos: pos, Msg: fmt.Sprintf("no thread P%d", l.Proc)}
	}
	name := l.Name
	if l.Index >= 0 {
		name = fmt.Sprintf("%s[%d]", l.Name, l.Index)
	}
	i, ok := p.byName[name]
	if !ok {
		return locKey{}, &litmus.Error{Pos: pos, Msg: "unknown location " + name}
	}
	return locKey{loc: i, name: name, proc: -1}, nil
}

// cprop is a compiled proposition.
type cprop struct {
	kind string // "atom", "not", "and", "or", "imp", "bool"
	key  locKey
	eq   bool // atom: = (true) or != (false)
	v    val
	vkey *locKey // atom: compare with another location
	x, y *cprop
	b    bool
}

func (p *program) compileProp(pr litmus.Prop) (*cprop, error) {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		k, err := p.lookupLoc(pr.Loc)
		if err != nil {
			return nil, err
		}
		c := &cprop{kind: "atom", key: k, eq: pr.Op != "!="}
		switch {
		case pr.Val.Loc != nil:
			vk, err := p.lookupLoc(pr.Val.Loc)
			if err != nil {
				return nil, err
			}
			c.vkey = &vk
		case pr.Val.IsInt:
			c.v = pr.Val.Int
		default:
			i, ok := p.byName[pr.Val.Sym]
			if !ok {
				return nil, &litmus.Error{Pos: p.test.File.Position(pr.Val.Pos()), Msg: "unknown location " + pr.Val.Sym}
			}
			c.v = p.locs[i].addr
		}
		return c, nil
	case *litmus.NotProp:
		x, err := p.compileProp(pr.X)
		if err != nil {
			return nil, err
		}
		return &cprop{kind: "not", x: x}, nil
	case *litmus.ParenProp:
		return p.compileProp(pr.X)
	case *litmus.BoolProp:
		return &cprop{kind: "bool", b: pr.Value}, nil
	case *litmus.BinProp:
		x, err := p.compileProp(pr.X)
		if err != nil {
			return nil, err
		}
		y, err := p.compileProp(pr.Y)
		if err != nil {
			return nil, err
		}
		k := map[string]string{`/\`: "and", `\/`: "or", "=>": "imp"}[pr.Op]
		if k == "" {
			return nil, &litmus.Error{Pos: p.test.File.Position(pr.Pos()), Msg: "unknown operator " + pr.Op}
		}
		return &cprop{kind: k, x: x, y: y}, nil
	}
	return nil, fmt.Errorf("unsupported proposition %T", pr)
}

func (c *cprop) eval(s *mstate) bool {
	switch c.kind {
	case "atom":
		v := c.v
		if c.vkey != nil {
			v = c.vkey.get(s)
		}
		return (c.key.get(s) == v) == c.eq
	case "not":
		return !c.x.eval(s)
	case "and":
		return c.x.eval(s) && c.y.eval(s)
	case "or":
		return c.x.eval(s) || c.y.eval(s)
	case "imp":
		return !c.x.eval(s) || c.y.eval(s)
	case "bool":
		return c.b
	}
	panic("model: bad proposition " + c.kind)
}

// observed returns the locations herd shows in each final state: those of
// the locations list and of the condition, registers first (by thread,
// then name), then shared locations by name.
func (p *program) observed() ([]locKey, error) {
	var keys []locKey
	seen := map[string]bool{}
	add := func(l *litmus.LocRef) error {
		k, err := p.lookupLoc(l)
		if err != nil {
			return err
		}
		if s := k.String(); !seen[s] {
			seen[s] = true
			keys = append(keys, k)
		}
		return nil
	}
	var visit func(pr litmus.Prop) error
	visit = func(pr litmus.Prop) error {
		switch pr := pr.(type) {
		case *litmus.AtomProp:
			if err := add(pr.Loc); err != nil {
				return err
			}
			if pr.Val.Loc != nil {
				return add(pr.Val.Loc)
			}
		case *litmus.NotProp:
			return visit(pr.X)
		case *litmus.ParenProp:
			return visit(pr.X)
		case *litmus.BinProp:
			if err := visit(pr.X); err != nil {
				return err
			}
			return visit(pr.Y)
		}
		return nil
	}
	for _, l := range p.test.Locations {
		if err := add(l); err != nil {
			return nil, err
		}
	}
	if p.test.Cond != nil {
		if err := visit(p.test.Cond.Prop); err != nil {
			return nil, err
		}
	}
	observed := func(k locKey) report.Observed {
		if k.reg {
			return report.Observed{Reg: true, Proc: k.proc, Name: k.regTxt}
		}
		return report.Observed{Name: k.name}
	}
	sort.SliceStable(keys, func(i, j int) bool { return observed(keys[i]).Less(observed(keys[j])) })
	return keys, nil
}

// format prints a value: an integer, or the name of the location it is
// the address of.
func (p *program) format(v val) string {
	if s, ok := p.symbol(v); ok {
		return s
	}
	if v == wildAddr {
		return "an address outside its object"
	}
	return strconv.FormatInt(v, 10)
}

// value converts a machine value for the Result.
func (p *program) value(v val) report.Value {
	if s, ok := p.symbol(v); ok {
		return report.Value{Sym: s}
	}
	return report.Value{Int: v}
}
