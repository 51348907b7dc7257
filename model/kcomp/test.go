package kcomp

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// finish writes the compiled test: the init section (shared locations,
// the registers holding their addresses, the C registers' initial values),
// the threads in herd's columns, and the final section with the C
// registers renamed to the registers they were given.
func (c *compiler) finish() (*Compiled, error) {
	t := c.t
	out := &Compiled{Target: c.tg, C: t, Loops: c.loops, cnames: map[string]string{}, origins: map[lineKey]Origin{}, flag: c.be.flag()}
	byID := map[int]*thread{}
	for _, th := range c.threads {
		byID[th.id] = th
	}
	// mapLoc names a location of the final section in the compiled test.
	var ferr error
	mapLoc := func(l *litmus.LocRef) string {
		if l.Proc < 0 {
			return l.Name
		}
		th := byID[l.Proc]
		if th == nil {
			if ferr == nil {
				ferr = c.errorf(l.Pos(), "no thread P%d", l.Proc)
			}
			return l.Name
		}
		r, ok := th.reg(c, l.Name)
		if !ok && ferr == nil {
			ferr = c.unsupported(l.Pos(), "P%d has no register left for %s", l.Proc, l.Name)
		}
		key := fmt.Sprintf("%d:%s", l.Proc, r)
		out.cnames[key] = fmt.Sprintf("%d:%s", l.Proc, l.Name)
		return key
	}
	var locs []string
	for _, l := range t.Locations {
		locs = append(locs, mapLoc(l))
	}
	var filter []string
	if t.Filter != nil {
		filter = append(filter, "("+propString(t.Filter, mapLoc)+")")
	}
	cond := ""
	if t.Cond != nil {
		cond = string(t.Cond.Quant) + " " + propString(t.Cond.Prop, mapLoc)
	}
	for _, th := range c.threads {
		if th.retry {
			filter = append(filter, fmt.Sprintf("%d:%s=0", th.id, c.be.flag()))
			out.retry = append(out.retry, th.id)
		}
	}
	if ferr != nil {
		return nil, ferr
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", c.tg.Dialect, t.Name)
	fmt.Fprintf(&b, "(* %s compiled for %s by litmus from the kernel's mapping (model/kmap, %s)", t.Name, c.tg.Name, c.tg.Map)
	if !c.opt.RetryLoops {
		fmt.Fprintf(&b, "; a retry of a kernel sequence sets the thread's %s and ends its path, and the filter drops those paths", c.be.flag())
	}
	if len(c.awaits) > 0 {
		b.WriteString("; a loop checked as an await of its exit condition is one iteration, whose failure (the thread spinning forever) ends the path in the same way")
	}
	b.WriteString(" *)\n{\n")
	for _, v := range c.vars {
		init := c.init[v]
		if init == "" {
			init = "0"
		}
		if typ := c.locType(v); typ != "" {
			b.WriteString(typ + " ")
		}
		fmt.Fprintf(&b, "%s=%s;\n", v, init)
	}
	for _, o := range t.Objects {
		// The C test's objects, for its ptr_adds: arch.Program resolves
		// an address moved within an object to the cell there.
		fmt.Fprintf(&b, "object %s {", o.Name)
		for _, cl := range o.Cells {
			fmt.Fprintf(&b, " %d: %s;", cl.Off, cl.Loc)
		}
		b.WriteString(" };\n")
	}
	for _, th := range c.threads {
		var items []string
		for _, r := range th.order {
			typ := th.types[r]
			if typ != "" {
				typ += " "
			}
			items = append(items, fmt.Sprintf("%s%d:%s=%s;", typ, th.id, r, th.init[r]))
		}
		for _, r := range slices.Sorted(maps.Keys(th.types)) {
			if _, ok := th.init[r]; !ok {
				items = append(items, fmt.Sprintf("%s %d:%s;", th.types[r], th.id, r))
			}
		}
		if len(items) > 0 {
			b.WriteString(strings.Join(items, " ") + "\n")
		}
	}
	b.WriteString("}\n")
	// The columns: the header, then line k of every thread on text line
	// first+k.
	first := strings.Count(b.String(), "\n") + 2
	cells := make([][]string, len(c.threads))
	width := make([]int, len(c.threads))
	rows := 0
	for i, th := range c.threads {
		head := fmt.Sprintf("P%d", th.id)
		cells[i] = append(cells[i], head)
		for _, l := range th.lines {
			s := l.text
			if l.label != "" {
				s = strings.TrimSpace(l.label + ": " + s)
			}
			cells[i] = append(cells[i], s)
		}
		for _, s := range cells[i] {
			width[i] = max(width[i], len(s))
		}
		rows = max(rows, len(cells[i]))
	}
	for r := 0; r < rows; r++ {
		for i := range c.threads {
			s := ""
			if r < len(cells[i]) {
				s = cells[i][r]
			}
			sep := " |"
			if i == len(c.threads)-1 {
				sep = " ;"
			}
			fmt.Fprintf(&b, " %-*s%s", width[i], s, sep)
		}
		b.WriteString("\n")
	}
	if len(locs) > 0 {
		fmt.Fprintf(&b, "locations [%s]\n", strings.Join(locs, "; "))
	}
	if len(filter) > 0 {
		fmt.Fprintf(&b, "filter (%s)\n", strings.Join(filter, " /\\ "))
	}
	if cond != "" {
		b.WriteString(cond + "\n")
	}
	out.Text = []byte(b.String())
	name := t.Name + "." + c.tg.Name
	if t.File != nil {
		name = t.File.Name + " (" + c.tg.Name + ")"
	}
	ct, err := litmus.Parse(name, out.Text)
	if err != nil {
		return nil, fmt.Errorf("%s: internal error: the compiled test does not parse: %v\n%s", t.Name, err, out.Text)
	}
	out.Test = ct
	for i, pr := range ct.Procs {
		th := c.threads[i]
		if pr.ID != th.id {
			return nil, fmt.Errorf("%s: internal error: thread %d of the compiled test is P%d, not P%d", t.Name, i, pr.ID, th.id)
		}
		for _, in := range pr.Code {
			k := ct.File.Position(in.Pos()).Line - first
			if k < 0 || k >= len(th.lines) {
				return nil, fmt.Errorf("%s: internal error: P%d's instruction at line %d is outside its code\n%s", t.Name, th.id, k+first, out.Text)
			}
			if l := th.lines[k]; l.hasOrg {
				out.origins[lineKey{pr.ID, k + first}] = l.org
			}
		}
	}
	return out, nil
}

// propString prints a proposition with its locations named by name.
func propString(p litmus.Prop, name func(*litmus.LocRef) string) string {
	var b strings.Builder
	var walk func(p litmus.Prop)
	walk = func(p litmus.Prop) {
		switch p := p.(type) {
		case *litmus.AtomProp:
			b.WriteString(name(p.Loc))
			b.WriteString(p.Op)
			switch v := p.Val; {
			case v.Loc != nil:
				b.WriteString(name(v.Loc))
			case v.IsInt:
				b.WriteString(strconv.FormatInt(v.Int, 10))
			default:
				b.WriteString(v.Sym)
			}
		case *litmus.NotProp:
			b.WriteString("~")
			walk(p.X)
		case *litmus.BinProp:
			walk(p.X)
			b.WriteString(" " + p.Op + " ")
			walk(p.Y)
		case *litmus.BoolProp:
			b.WriteString(strconv.FormatBool(p.Value))
		case *litmus.ParenProp:
			b.WriteString("(")
			walk(p.X)
			b.WriteString(")")
		}
	}
	walk(p)
	return b.String()
}
