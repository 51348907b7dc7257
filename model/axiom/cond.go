package axiom

import (
	"sort"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// Final is the final state of one execution: the value of each location
// (its co-last write) and each thread's registers.
type Final struct {
	Mem  []Val
	Regs []map[string]Val // by thread index
}

// ObsLoc is a location of the final section: a register or a shared
// location.
type ObsLoc struct {
	Th   int // thread index for a register, -1 for shared
	Proc int
	Name string
	Loc  int // shared location index
	// Locs are, for a symbol of a mixed-size program, the locations
	// (granules) its value is made of.
	Locs []int
}

func (o ObsLoc) Key() string {
	if o.Th >= 0 {
		return strconv.Itoa(o.Proc) + ":" + o.Name
	}
	if strings.HasSuffix(o.Name, "]") {
		return o.Name // an array's cell prints as herd's x[1]
	}
	return "[" + o.Name + "]"
}

// CondEval evaluates the filter and the condition on final states and
// projects final states onto the observed locations.
type CondEval struct {
	p        *Program
	Prop     litmus.Prop
	Filter   litmus.Prop
	Quant    litmus.Quant
	Observed []ObsLoc
	thIndex  map[int]int
	// keys are the names of Observed, herd's columns.
	keys []string
}

func NewCondEval(p *Program) (*CondEval, error) {
	c := &CondEval{p: p, Filter: p.Test.Filter, thIndex: map[int]int{}}
	for i, th := range p.Threads {
		c.thIndex[th.ID()] = i
	}
	if p.Test.Cond != nil {
		c.Prop, c.Quant = p.Test.Cond.Prop, p.Test.Cond.Quant
	} else {
		// herd reads a missing condition as "forall true"
		// (ConstrGen.constr_true).
		c.Quant = litmus.Forall
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
		if !seen[o.Key()] {
			seen[o.Key()] = true
			c.Observed = append(c.Observed, o)
		}
	}
	for _, l := range p.Test.Locations {
		add(l)
	}
	if c.Prop != nil {
		litmus.EachAtom(c.Prop, func(a *litmus.AtomProp) {
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
	sort.SliceStable(c.Observed, func(i, j int) bool {
		a, b := c.Observed[i], c.Observed[j]
		if (a.Th >= 0) != (b.Th >= 0) {
			return a.Th >= 0
		}
		if a.Th >= 0 && a.Proc != b.Proc {
			return a.Proc < b.Proc
		}
		if a.Th >= 0 && p.RegLess != nil {
			return p.RegLess(a.Name, b.Name)
		}
		return a.Name < b.Name
	})
	c.keys = make([]string, len(c.Observed))
	for i, o := range c.Observed {
		c.keys[i] = o.Key()
	}
	return c, nil
}

func (c *CondEval) resolve(l *litmus.LocRef) (ObsLoc, error) {
	if l.Index >= 0 && l.Proc < 0 {
		// An array's cell (x[1]): a location of its own in an assembly
		// program (model/arch names the cells so).
		name := l.Name + "[" + strconv.Itoa(l.Index) + "]"
		if c.p.Symbol != nil {
			if locs, ok := c.p.Symbol(name); ok {
				return ObsLoc{Th: -1, Proc: -1, Name: name, Loc: locs[0], Locs: locs}, nil
			}
		}
		if i, ok := c.p.Index[name]; ok {
			return ObsLoc{Th: -1, Proc: -1, Name: name, Loc: i}, nil
		}
	}
	if l.Index >= 0 {
		return ObsLoc{}, c.p.Errorf(l.Pos(), "array elements are not supported by the LKMM engine")
	}
	if l.Proc >= 0 {
		th, ok := c.thIndex[l.Proc]
		if !ok {
			return ObsLoc{}, c.p.Errorf(l.Pos(), "no thread P%d", l.Proc)
		}
		name := l.Name
		if c.p.RegName != nil {
			// herd prints a register under its canonical name (a0 is
			// x10 in RISC-V).
			name = c.p.RegName(name)
		}
		return ObsLoc{Th: th, Proc: l.Proc, Name: name}, nil
	}
	if c.p.Symbol != nil {
		if locs, ok := c.p.Symbol(l.Name); ok {
			return ObsLoc{Th: -1, Proc: -1, Name: l.Name, Loc: locs[0], Locs: locs}, nil
		}
	}
	i, ok := c.p.Index[l.Name]
	if !ok {
		return ObsLoc{}, c.p.Errorf(l.Pos(), "unknown location %s", l.Name)
	}
	return ObsLoc{Th: -1, Proc: -1, Name: l.Name, Loc: i}, nil
}

// regName is the name under which a register is kept (the location's
// name for memory).
func (c *CondEval) regName(o ObsLoc) string {
	if o.Th >= 0 && c.p.RegName != nil {
		return c.p.RegName(o.Name)
	}
	return o.Name
}

func (c *CondEval) Value(o ObsLoc, f Final) Val {
	if o.Th >= 0 {
		name := o.Name
		if c.p.RegName != nil {
			name = c.p.RegName(name)
		}
		v := f.Regs[o.Th][name] // a register never written reads 0
		if c.p.Cast != nil && !v.IsSymbolic() {
			v = c.p.Cast(o.Th, name, v)
		}
		return v
	}
	v := f.Mem[o.Loc]
	if len(o.Locs) > 1 {
		// A mixed-size symbol: its granules, little-endian.
		bits := 8 * uint(c.p.Granule)
		var n int64
		for k, l := range o.Locs {
			g := f.Mem[l]
			if g.IsAddr() {
				return g
			}
			n |= (g.N & (1<<bits - 1)) << (bits * uint(k))
		}
		v = Int(n)
	}
	if c.p.Cast != nil && !v.IsSymbolic() {
		return c.p.Cast(-1, o.Name, v)
	}
	return v
}

func (c *CondEval) Holds(pr litmus.Prop, f Final) bool {
	switch pr := pr.(type) {
	case *litmus.AtomProp:
		o, err := c.resolve(pr.Loc)
		if err != nil {
			return false
		}
		v := c.Value(o, f)
		var want Val
		switch {
		case pr.Val.Loc != nil:
			if o2, err := c.resolve(pr.Val.Loc); err == nil {
				want = c.Value(o2, f)
			}
		case pr.Val.IsInt:
			want = Int(pr.Val.Int)
			if c.p.Cast != nil {
				// herd compares after casting both sides to the
				// location's type.
				name := o.Name
				if o.Th >= 0 && c.p.RegName != nil {
					name = c.p.RegName(name)
				}
				want = c.p.Cast(o.Th, name, want)
			}
		default:
			// herd reads a name as a symbolic constant, the address of
			// that name, distinct from every integer and every other
			// address. newProgram makes every name of the condition
			// and filter a location; a name that is none equals nothing.
			i, ok := c.p.Index[pr.Val.Sym]
			if !ok {
				return pr.Op == "!="
			}
			want = Addr(i)
		}
		if pr.Op == "!=" {
			return v != want
		}
		return v == want
	case *litmus.NotProp:
		return !c.Holds(pr.X, f)
	case *litmus.ParenProp:
		return c.Holds(pr.X, f)
	case *litmus.BoolProp:
		return pr.Value
	case *litmus.BinProp:
		switch pr.Op {
		case `/\`:
			return c.Holds(pr.X, f) && c.Holds(pr.Y, f)
		case `\/`:
			return c.Holds(pr.X, f) || c.Holds(pr.Y, f)
		case "=>":
			return !c.Holds(pr.X, f) || c.Holds(pr.Y, f)
		}
	}
	return false
}

// Ok is herd's Ok/No: exists wants a positive execution, ~exists none,
// forall no negative one.
func (c *CondEval) Ok(pos, neg int) bool {
	switch c.Quant {
	case litmus.NotExists:
		return pos == 0
	case litmus.Forall:
		return neg == 0
	}
	return pos > 0
}

// Line prints f's observed state as herd prints a state line (through
// report's one printer of them).
func (c *CondEval) Line(f Final) string {
	st := report.State{Values: make([]report.LocValue, len(c.Observed))}
	for i, o := range c.Observed {
		st.Values[i] = report.LocValue{Loc: c.keys[i], Val: ReportValue(c.print(i, c.Value(o, f)))}
	}
	return st.String()
}

// print returns herd's text of v, the value of observed location i.
func (c *CondEval) print(i int, v Val) string {
	o := c.Observed[i]
	if c.p.Unsigned != nil && !v.IsAddr() && v.N < 0 && c.p.Unsigned(o.Th, c.regName(o)) {
		return strconv.FormatUint(uint64(v.N), 10)
	}
	return v.Format(c.p.Names)
}

// Finals collects the distinct observed final states of a search, packed
// (report.StateSet): a state costs its information size, not a string
// per location.
type Finals struct {
	c    *CondEval
	set  *report.StateSet[Val]
	row  []Val
	hold *limit.Hold
}

// NewFinals returns an empty collection of c's final states, accounted
// in b's memory (nil: none).
func (c *CondEval) NewFinals(b *limit.Budget) *Finals {
	return &Finals{c: c, set: report.NewStateSet[Val](len(c.Observed)), row: make([]Val, len(c.Observed)), hold: b.Hold()}
}

// Add adds f's observed state and reports whether it was new.
func (fs *Finals) Add(f Final) bool {
	for i, o := range fs.c.Observed {
		fs.row[i] = fs.c.Value(o, f)
	}
	return fs.addRow(fs.row)
}

// addRow adds the state of observed values row.
func (fs *Finals) addRow(row []Val) bool {
	if !fs.set.Add(row) {
		return false
	}
	if n := fs.set.Bytes(); n >= fs.hold.Bytes()+64<<10 {
		fs.hold.Set(n)
	}
	return true
}

// Merge adds the states of o, which is empty afterwards; a nil o (a part
// of a parallel search that never ran) adds none.
func (fs *Finals) Merge(o *Finals) {
	if o == nil {
		return
	}
	o.set.Each(func(row []Val) { fs.addRow(row) })
	o.set = report.NewStateSet[Val](len(fs.c.Observed))
	o.hold.Set(0)
}

// Len returns the number of distinct states added.
func (fs *Finals) Len() int { return fs.set.Len() }

// Bytes returns roughly what the collection holds.
func (fs *Finals) Bytes() uint64 { return fs.set.Bytes() }

// States returns the states in herd's order; fs is empty afterwards.
func (fs *Finals) States() report.States {
	fs.hold.Set(0)
	c := fs.c
	printed := func(col int, v Val) string { return c.print(col, v) }
	return fs.set.States(c.keys,
		func(col int, v Val) report.Value { return ReportValue(printed(col, v)) },
		func(col int, a, b Val) bool { return c.valLess(printed(col, a), printed(col, b)) })
}

// ReportValue reads a value as herd prints it: an integer, or else a
// name (a location, "x+4", a symbolic S<n>, an unsigned value above
// 2^63-1), as every axiomatic model's Result holds it.
func ReportValue(s string) report.Value {
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return report.Value{Int: n}
	}
	return report.Value{Sym: s}
}

// ValueLess orders two values of one location of a Result as herd does:
// symbolic values first, then integers numerically, then addresses by
// name.
func (c *CondEval) ValueLess(a, b report.Value) bool {
	return c.valLess(a.String(), b.String())
}

// valLess orders two different printed values of one location.
func (c *CondEval) valLess(a, b string) bool {
	if a == b {
		return false
	}
	as, aok := c.symbolic(a)
	bs, bok := c.symbolic(b)
	switch {
	case aok && bok:
		return as < bs
	case aok != bok:
		return aok
	}
	ai, aerr := parseInt64(a)
	bi, berr := parseInt64(b)
	switch {
	case aerr == nil && berr == nil:
		return ai < bi
	case aerr == nil:
		return true
	case berr == nil:
		return false
	}
	return a < b
}

// symbolic reports whether a printed value is a symbolic value S<n> (and
// not a location of that name), with n.
func (c *CondEval) symbolic(s string) (int, bool) {
	if len(s) < 2 || s[0] != 'S' {
		return 0, false
	}
	if _, isLoc := c.p.Index[s]; isLoc {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	return n, err == nil
}

// parseInt64 reads a printed integer; an unsigned one above 2^63-1 reads
// as the negative int64 it is held as.
func parseInt64(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(s, 10, 64)
		if uerr != nil {
			return 0, err
		}
		return int64(u), nil
	}
	return n, nil
}
