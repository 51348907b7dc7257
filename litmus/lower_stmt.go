package litmus

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// inliner lowers one thread: its body, and the bodies of the functions
// it calls, inlined.
type inliner struct {
	lw     *lowerer
	th     int
	out    *[]Stmt
	scopes []map[string]*binding
	stack  []*funcDef
	file   *File // the file of the code being lowered
	site   Pos   // in an included file's code: the call site in the test
	ret    *retCtx
	fn     *funcDef
	inst   map[*DeclStmt]string
	params map[string]bool // locations the thread uses
	regs   map[string]bool
	decls  []Stmt
	assign map[string]bool // names assigned in the current function
	// labels maps each label a goto may jump to (forward, in an
	// enclosing list of the current function) to the statements from
	// it on; jumps numbers the labels switches and unrolled loops jump to.
	labels map[string][]Stmt
	jumps  int
}

// binding is a local name: a register, or a pointer fixed at lowering.
type binding struct {
	t      *ctype
	reg    string
	static *value
}

type retCtx struct {
	t       *ctype
	reg     string
	static  *value
	statics int
	dynamic bool
}

// maxInline bounds the depth of inlined calls.
const maxInline = 32

func (lw *lowerer) thread(pr *Proc) *Proc {
	in := &inliner{lw: lw, th: pr.ID, file: lw.p.file, params: map[string]bool{}, regs: map[string]bool{}, inst: map[*DeclStmt]string{}}
	var body []Stmt
	in.out = &body
	sc := map[string]*binding{}
	for _, prm := range pr.Params {
		t := lw.typeOf(prm.Type, prm.Name.Pos())
		o := lw.objs[prm.Name.Name]
		if t == nil || o == nil {
			continue
		}
		if t.kind != kPtr {
			lw.errorf(nil, prm.Name.Pos(), "parameter %s must be a pointer to the object %s", prm.Name.Name, prm.Name.Name)
			continue
		}
		sc[prm.Name.Name] = &binding{t: t, static: &value{t: t, addr: &place{obj: o, t: o.d.typ}}}
	}
	in.scopes = []map[string]*binding{sc}
	in.assign = assigned(pr.Body)
	if pr.Body != nil {
		in.seq(pr.Body.List)
	}
	var names []string
	for n := range in.params {
		names = append(names, n)
	}
	sort.Strings(names)
	np := &Proc{ProcPos: pr.ProcPos, ID: pr.ID, EndPos: pr.EndPos}
	for _, n := range names {
		s := lw.paths[lw.pathOfLoc(n)]
		np.Params = append(np.Params, &Param{Type: strings.TrimSuffix(s.typ.flatType(), " *") + " *" + strings.Repeat("*", strings.Count(s.typ.flatType(), "*")), Name: &Ident{NamePos: pr.ProcPos, Name: n}})
	}
	np.Body = &BlockStmt{Lbrace: pr.Body.Lbrace, List: append(in.decls, body...), Rbrace: pr.Body.Rbrace}
	return np
}

// pathOfLoc finds the path of a flattened location.
func (lw *lowerer) pathOfLoc(loc string) string {
	for _, o := range lw.order {
		for _, s := range o.scalars {
			if s.loc == loc {
				return s.path
			}
		}
	}
	return ""
}

// assigned lists the names a function body assigns to.
func assigned(b *BlockStmt) map[string]bool {
	out := map[string]bool{}
	if b == nil {
		return out
	}
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch s := s.(type) {
		case *BlockStmt:
			for _, x := range s.List {
				walk(x)
			}
		case *AssignStmt:
			if id, ok := Unparen(s.LHS).(*Ident); ok {
				out[id.Name] = true
			}
		case *IfStmt:
			walk(s.Then)
			if s.Else != nil {
				walk(s.Else)
			}
		case *WhileStmt:
			walk(s.Body)
		case *DoWhileStmt:
			walk(s.Body)
		case *ForStmt:
			if s.Init != nil {
				walk(s.Init)
			}
			if s.Post != nil {
				walk(s.Post)
			}
			walk(s.Body)
		case *SwitchStmt:
			for _, cl := range s.Clauses {
				for _, x := range cl.Body {
					walk(x)
				}
			}
		case *LabeledStmt:
			walk(s.Stmt)
		}
	}
	walk(b)
	return out
}

// pos maps a position of the code being lowered into the test file.
func (in *inliner) pos(p Pos) Pos {
	if in.file == in.lw.p.file {
		return p
	}
	return in.site
}

func (in *inliner) errorf(p Pos, format string, args ...any) {
	in.lw.errorf(in.file, p, format, args...)
}

func (in *inliner) emit(s Stmt) { *in.out = append(*in.out, s) }

// sub lowers f into a fresh statement list.
func (in *inliner) sub(f func()) []Stmt {
	var list []Stmt
	saved := in.out
	in.out = &list
	f()
	in.out = saved
	return list
}

func (in *inliner) push() { in.scopes = append(in.scopes, map[string]*binding{}) }
func (in *inliner) pop()  { in.scopes = in.scopes[:len(in.scopes)-1] }

func (in *inliner) lookup(name string) *binding {
	for i := len(in.scopes) - 1; i >= 0; i-- {
		if b := in.scopes[i][name]; b != nil {
			return b
		}
	}
	return nil
}

// newReg declares a register for a local named name.
func (in *inliner) newReg(name string, t *ctype, d *DeclStmt) string {
	if d != nil {
		if r, ok := in.inst[d]; ok {
			return r
		}
	}
	base := name
	if in.fn != nil {
		base = in.fn.name + "_" + name
	}
	r := base
	for i := 1; in.regs[r] || in.lw.used[r]; i++ {
		r = base + "_" + strconv.Itoa(i)
	}
	in.regs[r] = true
	if d != nil {
		in.inst[d] = r
	}
	in.decls = append(in.decls, &DeclStmt{TypePos: in.site, Type: t.flatType(), Name: &Ident{NamePos: in.site, Name: r}, EndPos: in.site})
	return r
}

// temp declares a fresh register.
func (in *inliner) temp(t *ctype) string {
	saved := in.fn
	in.fn = nil
	r := in.newReg("t", t, nil)
	in.fn = saved
	return r
}

// leavesList reports whether s leaves the statement list it is in: it
// holds a return, or a goto to a label that s does not hold.
func leavesList(s Stmt) bool {
	found := false
	labels := map[string]bool{}
	var gotos []string
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch s := s.(type) {
		case *ReturnStmt:
			found = true
		case *GotoStmt:
			gotos = append(gotos, s.Label.Name)
		case *LabeledStmt:
			labels[s.Label.Name] = true
			walk(s.Stmt)
		case *BlockStmt:
			for _, x := range s.List {
				walk(x)
			}
		case *IfStmt:
			walk(s.Then)
			if s.Else != nil {
				walk(s.Else)
			}
		case *WhileStmt:
			walk(s.Body)
		case *DoWhileStmt:
			walk(s.Body)
		case *ForStmt:
			walk(s.Body)
		case *SwitchStmt:
			for _, cl := range s.Clauses {
				for _, x := range cl.Body {
					walk(x)
				}
			}
		}
	}
	walk(s)
	for _, l := range gotos {
		if !labels[l] {
			found = true
		}
	}
	return found
}

func asList(s Stmt) []Stmt {
	if s == nil {
		return nil
	}
	if b, ok := s.(*BlockStmt); ok {
		return b.List
	}
	return []Stmt{s}
}

// seq lowers a statement list. In a function, a statement holding a
// return takes the rest of the list into each of its ways that does not
// return: "if (!sock) return; rest" becomes "if (!sock) {} else { rest }",
// so the rest is under the branch, as the C code's control flow has it.
// A goto is lowered the same way: "goto out" continues with the
// statements from the label out on, in the innermost list that holds the
// label after the goto (a forward goto to a label of an enclosing block,
// as kernel error paths write it). A switch becomes ifs on its tag, each
// case's statements followed by those of the cases it falls into, and
// its breaks gotos to the switch's end.
func (in *inliner) seq(list []Stmt) {
	saved := in.labels
	defer func() { in.labels = saved }()
	for i := 0; i < len(list); i++ {
		s := list[i]
		if sw, ok := s.(*SwitchStmt); ok {
			in.seq(append(in.switchIfs(sw), list[i+1:]...))
			return
		}
		if f, ok := s.(*ForStmt); ok {
			if unrolled := in.countedFor(f); unrolled != nil {
				in.seq(append(unrolled, list[i+1:]...))
				return
			}
		}
		// The labels after s are the targets its gotos may have.
		in.labels = maps.Clone(saved)
		if in.labels == nil {
			in.labels = map[string][]Stmt{}
		}
		for j := i + 1; j < len(list); j++ {
			if l, ok := list[j].(*LabeledStmt); ok {
				in.labels[l.Label.Name] = list[j:]
			}
		}
		for l, ok := s.(*LabeledStmt); ok; l, ok = s.(*LabeledStmt) {
			s = l.Stmt
		}
		if g, ok := s.(*GotoStmt); ok {
			cont, ok := in.labels[g.Label.Name]
			if !ok {
				in.errorf(g.Pos(), "goto %s: only a forward goto to a label of an enclosing block of the same function is supported in a code test", g.Label.Name)
				return
			}
			in.seq(cont)
			return
		}
		if !leavesList(s) {
			in.stmt(s)
			continue
		}
		rest := list[i+1:]
		switch s := s.(type) {
		case *ReturnStmt:
			in.doReturn(s)
		case *BlockStmt:
			in.push()
			in.seq(append(append([]Stmt(nil), s.List...), rest...))
			in.pop()
		case *IfStmt:
			c := in.rv(s.Cond)
			if lit, ok := c.(*IntLit); ok {
				arm := s.Else
				if lit.Value != 0 {
					arm = s.Then
				}
				in.push()
				in.seq(append(append([]Stmt(nil), asList(arm)...), rest...))
				in.pop()
				return
			}
			then := in.sub(func() {
				in.push()
				in.seq(append(append([]Stmt(nil), asList(s.Then)...), rest...))
				in.pop()
			})
			els := in.sub(func() {
				in.push()
				in.seq(append(append([]Stmt(nil), asList(s.Else)...), rest...))
				in.pop()
			})
			is := &IfStmt{If: in.pos(s.If), Cond: c, Then: in.block(then, s.Pos())}
			if len(els) > 0 {
				is.Else = in.block(els, s.Pos())
			}
			in.emit(is)
		default:
			in.errorf(s.Pos(), "return or goto out of a loop is not supported in a code test")
		}
		return
	}
}

// switchIfs rewrites switch sw as the statements seq lowers for it: the
// tag evaluated once into a register, then an if per case, and default's
// statements when none matches; each label's statements are followed by
// those of the labels after it (C's fall-through), and a break that
// leaves the switch is a goto to a label after the ifs.
func (in *inliner) switchIfs(sw *SwitchStmt) []Stmt {
	p := sw.Pos()
	in.jumps++
	end := fmt.Sprintf("switch:%d", in.jumps) // no C identifier spells it
	tag := in.temp(scalarType("long"))
	in.emit(&AssignStmt{LHS: &Ident{NamePos: in.pos(p), Name: tag}, OpPos: in.pos(p), Op: "=", RHS: in.rv(sw.Tag), EndPos: in.pos(p)})
	in.scopes[len(in.scopes)-1][end] = &binding{t: scalarType("long"), reg: tag}
	var segs [][]Stmt
	for k := range sw.Clauses {
		var seg []Stmt
		for _, cl := range sw.Clauses[k:] {
			for _, x := range cl.Body {
				seg = append(seg, jumpsToGoto(x, end, ""))
			}
		}
		segs = append(segs, seg)
	}
	var chain Stmt // default's statements, wherever it is, when no case matches
	for k, cl := range sw.Clauses {
		if cl.Default {
			chain = &BlockStmt{Lbrace: cl.Case, List: segs[k], Rbrace: cl.Case}
		}
	}
	for k := len(sw.Clauses) - 1; k >= 0; k-- {
		cl := sw.Clauses[k]
		body := &BlockStmt{Lbrace: cl.Case, List: segs[k], Rbrace: cl.Case}
		if cl.Default {
			continue
		}
		var cond Expr
		for _, v := range cl.Values {
			var c Expr = &BinaryExpr{X: &Ident{NamePos: v.Pos(), Name: end}, OpPos: v.Pos(), Op: "==", Y: v}
			if cond != nil {
				c = &BinaryExpr{X: cond, OpPos: v.Pos(), Op: "||", Y: c}
			}
			cond = c
		}
		is := &IfStmt{If: cl.Case, Cond: cond, Then: body}
		if chain != nil {
			is.Else = chain
		}
		chain = is
	}
	out := []Stmt{}
	if chain != nil {
		out = append(out, chain)
	}
	return append(out, &LabeledStmt{Label: &Ident{NamePos: sw.Rbrace, Name: end}, Stmt: &EmptyStmt{Semi: sw.Rbrace}})
}

// jumpsToGoto returns s with each break and continue that leaves the
// construct being rewritten written as a goto: break to brk, continue to
// cont (each "" to leave it as written). It does not enter loops, whose
// breaks and continues are their own, and enters a switch for its
// continues only.
func jumpsToGoto(s Stmt, brk, cont string) Stmt {
	if brk == "" && cont == "" {
		return s
	}
	switch s := s.(type) {
	case *BranchStmt:
		to := brk
		if s.Tok == "continue" {
			to = cont
		}
		if to != "" {
			return &GotoStmt{Goto: s.TokPos, Label: &Ident{NamePos: s.TokPos, Name: to}, EndPos: s.End()}
		}
	case *BlockStmt:
		b := *s
		b.List = nil
		for _, x := range s.List {
			b.List = append(b.List, jumpsToGoto(x, brk, cont))
		}
		return &b
	case *IfStmt:
		is := *s
		is.Then = jumpsToGoto(s.Then, brk, cont)
		if s.Else != nil {
			is.Else = jumpsToGoto(s.Else, brk, cont)
		}
		return &is
	case *LabeledStmt:
		return &LabeledStmt{Label: s.Label, Stmt: jumpsToGoto(s.Stmt, brk, cont)}
	case *SwitchStmt:
		sw := *s
		sw.Clauses = nil
		for _, cl := range s.Clauses {
			c := *cl
			c.Body = nil
			for _, x := range cl.Body {
				c.Body = append(c.Body, jumpsToGoto(x, "", cont))
			}
			sw.Clauses = append(sw.Clauses, &c)
		}
		return &sw
	}
	return s
}

// maxUnroll bounds the iterations countedFor writes out.
const maxUnroll = 64

// countedFor returns the statements of for loop f written out iteration
// by iteration when its trip count is fixed when lowering: a local
// counter set to a constant, compared with a constant, stepped by a
// constant, which the body neither assigns nor takes the address of
// (for (i = 0; i < ARRAY_SIZE(r->slot); i++)). Each iteration is the body,
// its breaks gotos to the loop's end and its continues gotos to the step
// after it; the result is the loop's meaning under every model, where a
// loop the axiomatic models unroll a bounded number of times would be
// Unknown past that bound. It returns nil for any other loop.
func (in *inliner) countedFor(f *ForStmt) []Stmt {
	var name string
	var start Expr
	switch init := f.Init.(type) {
	case *AssignStmt:
		id, ok := Unparen(init.LHS).(*Ident)
		if !ok || init.Op != "=" {
			return nil
		}
		name, start = id.Name, init.RHS
	case *DeclStmt:
		if init.Init == nil {
			return nil
		}
		name, start = init.Name.Name, init.Init
	default:
		return nil
	}
	cond, ok := f.Cond.(*BinaryExpr)
	if !ok {
		return nil
	}
	if id, ok := Unparen(cond.X).(*Ident); !ok || id.Name != name {
		return nil
	}
	post, ok := f.Post.(*AssignStmt)
	if !ok {
		return nil
	}
	if id, ok := Unparen(post.LHS).(*Ident); !ok || id.Name != name {
		return nil
	}
	var step int64
	switch post.Op {
	case "++":
		step = 1
	case "--":
		step = -1
	case "+=", "-=":
		v, ok := in.constant(post.RHS)
		if !ok {
			return nil
		}
		step = v
		if post.Op == "-=" {
			step = -v
		}
	default:
		return nil
	}
	body := &BlockStmt{List: []Stmt{f.Body}}
	if step == 0 || assigned(body)[name] || addressTaken(f.Body, name) {
		return nil
	}
	if _, ok := f.Init.(*AssignStmt); ok {
		if b := in.lookup(name); b == nil || b.reg == "" || b.t.kind != kInt {
			return nil // a counter that is not a local integer
		}
	}
	v, ok := in.constant(start)
	if !ok {
		return nil
	}
	bound, ok := in.constant(cond.Y)
	if !ok {
		return nil
	}
	holds := func(i int64) (bool, bool) {
		switch cond.Op {
		case "<":
			return i < bound, true
		case "<=":
			return i <= bound, true
		case ">":
			return i > bound, true
		case ">=":
			return i >= bound, true
		case "!=":
			return i != bound, true
		}
		return false, false
	}
	n := 0
	for i := v; ; i += step {
		ok, known := holds(i)
		if !known || n > maxUnroll {
			return nil
		}
		if !ok {
			break
		}
		n++
	}
	if declares(f.Body, name) {
		return nil
	}
	// Each iteration's body reads the counter as the constant it holds
	// there: r->slot[i] is a fixed location, not an address computed at
	// run time. A break leaves the counter as it was; the loop's end,
	// past the last step.
	in.jumps++
	id := in.jumps
	end := fmt.Sprintf("for:%d", id)
	_, scoped := f.Init.(*DeclStmt)
	sc := in.scopes[len(in.scopes)-1]
	t := cInt
	if b := in.lookup(name); b != nil && !scoped {
		t = b.t
	}
	set := func(pos Pos, val int64) Stmt {
		return &AssignStmt{LHS: &Ident{NamePos: pos, Name: name}, OpPos: pos, Op: "=", RHS: intLit(pos, val), EndPos: pos}
	}
	var out, breaks []Stmt
	for k := 0; k < n; k++ {
		val := v + int64(k)*step
		alias := fmt.Sprintf("for:%d:%s:%d", id, name, k)
		sc[alias] = &binding{t: t, static: &value{t: t, x: intLit(f.Body.Pos(), val)}}
		body := cloneNode(f.Body)
		Inspect(body, func(n Node) bool {
			if x, ok := n.(*Ident); ok && x.Name == name {
				x.Name = alias
			}
			return true
		})
		brk := end
		if !scoped {
			brk = fmt.Sprintf("for:%d:break:%d", id, k)
			breaks = append(breaks, &LabeledStmt{Label: &Ident{NamePos: f.Body.Pos(), Name: brk}, Stmt: set(f.Body.Pos(), val)},
				&GotoStmt{Goto: f.Body.Pos(), Label: &Ident{NamePos: f.Body.Pos(), Name: end}, EndPos: f.Body.Pos()})
		}
		next := fmt.Sprintf("for:%d:%d", id, k)
		out = append(out, jumpsToGoto(&BlockStmt{Lbrace: f.Body.Pos(), List: []Stmt{body}, Rbrace: f.Body.Pos()}, brk, next),
			&LabeledStmt{Label: &Ident{NamePos: f.Body.Pos(), Name: next}, Stmt: &EmptyStmt{Semi: f.Body.Pos()}})
	}
	if !scoped {
		out = append(out, set(f.Body.End(), v+int64(n)*step), &GotoStmt{Goto: f.Body.End(), Label: &Ident{NamePos: f.Body.End(), Name: end}, EndPos: f.Body.End()})
		out = append(out, breaks...)
	}
	return append(out, &LabeledStmt{Label: &Ident{NamePos: f.Body.End(), Name: end}, Stmt: &EmptyStmt{Semi: f.Body.End()}})
}

// declares reports whether s declares a local named name.
func declares(s Stmt, name string) bool {
	found := false
	Inspect(s, func(n Node) bool {
		if d, ok := n.(*DeclStmt); ok && d.Name.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// constant is the value of e when it lowers to an integer constant with
// no statement (a literal, an enum, sizeof, ARRAY_SIZE()).
func (in *inliner) constant(e Expr) (int64, bool) {
	var v *value
	if stmts := in.sub(func() { v = in.expr(e) }); len(stmts) > 0 || v == nil {
		return 0, false
	}
	lit, ok := Unparen(v.x).(*IntLit)
	if !ok {
		return 0, false
	}
	return lit.Value, true
}

// addressTaken reports whether s takes the address of name (&name).
func addressTaken(s Stmt, name string) bool {
	found := false
	var walk func(n Node) bool
	walk = func(n Node) bool {
		if u, ok := n.(*UnaryExpr); ok && u.Op == "&" {
			if id, ok := Unparen(u.X).(*Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	}
	Inspect(s, walk)
	return found
}

func (in *inliner) block(list []Stmt, p Pos) *BlockStmt {
	return &BlockStmt{Lbrace: in.pos(p), List: list, Rbrace: in.pos(p)}
}

func (in *inliner) doReturn(s *ReturnStmt) {
	if in.ret == nil {
		// In a thread's body: a bare return ends the thread, as the
		// end of its body does (seq drops the statements after it).
		if s.X != nil {
			in.errorf(s.Pos(), "a thread returns no value (return; ends it)")
		}
		return
	}
	if s.X == nil {
		if in.ret.t.kind != kVoid {
			in.errorf(s.Pos(), "%s must return a value of type %s", in.fn.name, in.ret.t.name)
		}
		return
	}
	if in.ret.t.kind == kVoid {
		in.errorf(s.Pos(), "%s returns void, not a value", in.fn.name)
		return
	}
	v := in.expr(s.X)
	if v == nil {
		return
	}
	if v.fixed() {
		if in.ret.static != nil && !sameStatic(in.ret.static, v) {
			in.errorf(s.Pos(), "%s returns different fixed pointers on different paths, which a code test does not support", in.fn.name)
		}
		in.ret.static = v
		in.ret.statics++
		return
	}
	if in.ret.reg == "" {
		in.ret.reg = in.newReg("ret", in.ret.t, nil)
	}
	in.ret.dynamic = true
	in.emit(&AssignStmt{LHS: &Ident{NamePos: in.pos(s.Pos()), Name: in.ret.reg}, OpPos: in.pos(s.Pos()), Op: "=", RHS: in.conv(v), EndPos: in.pos(s.End())})
}

func sameStatic(a, b *value) bool {
	if a.fn != nil || b.fn != nil {
		return a.fn == b.fn
	}
	if a.local != "" || b.local != "" {
		return a.local == b.local
	}
	return a.addr != nil && b.addr != nil && a.addr.obj == b.addr.obj && a.addr.off == b.addr.off
}

// stmt lowers one statement that holds no return.
func (in *inliner) stmt(s Stmt) {
	switch s := s.(type) {
	case *DeclStmt:
		in.decl(s)
	case *AssignStmt:
		in.assignStmt(s)
	case *ExprStmt:
		v := in.exprFor(s.X, true)
		if v != nil && v.x != nil && hasCall(v.x) {
			in.emit(&ExprStmt{X: v.x, Void: s.Void, EndPos: in.pos(s.End())})
		}
	case *IfStmt:
		c := in.rv(s.Cond)
		if lit, ok := c.(*IntLit); ok {
			// Decided when lowering (a fixed pointer tested against
			// NULL): no branch, as no value read at run time decides it.
			in.push()
			if lit.Value != 0 {
				in.stmt(s.Then)
			} else if s.Else != nil {
				in.stmt(s.Else)
			}
			in.pop()
			return
		}
		then := in.sub(func() { in.push(); in.stmt(s.Then); in.pop() })
		is := &IfStmt{If: in.pos(s.If), Cond: c, Then: in.block(then, s.Then.Pos())}
		if s.Else != nil {
			els := in.sub(func() { in.push(); in.stmt(s.Else); in.pop() })
			is.Else = in.block(els, s.Else.Pos())
		}
		in.emit(is)
	case *WhileStmt:
		var c Expr
		cs := in.sub(func() { c = in.rv(s.Cond) })
		body := in.sub(func() { in.push(); in.stmt(s.Body); in.pop() })
		if len(cs) == 0 {
			in.emit(&WhileStmt{While: in.pos(s.While), Cond: c, Body: in.block(body, s.Body.Pos())})
			return
		}
		// The condition calls a function: while (1) { cond; if (!c) break; body }.
		p := in.pos(s.While)
		list := append(cs, &IfStmt{If: p, Cond: &UnaryExpr{OpPos: p, Op: "!", X: &ParenExpr{Lparen: p, X: c, Rparen: p}}, Then: &BranchStmt{TokPos: p, Tok: "break"}})
		in.emit(&WhileStmt{While: p, Cond: intLit(p, 1), Body: in.block(append(list, body...), s.Body.Pos())})
	case *DoWhileStmt:
		body := in.sub(func() { in.push(); in.stmt(s.Body); in.pop() })
		var c Expr
		cs := in.sub(func() { c = in.rv(s.Cond) })
		in.emit(&DoWhileStmt{Do: in.pos(s.Do), Body: in.block(append(body, cs...), s.Body.Pos()), Cond: c, EndPos: in.pos(s.End())})
	case *ForStmt:
		in.push()
		f := &ForStmt{For: in.pos(s.For)}
		if s.Init != nil {
			init := in.sub(func() { in.stmt(s.Init) })
			for _, x := range init[:max(len(init)-1, 0)] {
				in.emit(x)
			}
			if len(init) > 0 {
				f.Init = init[len(init)-1]
			}
		}
		if s.Cond != nil {
			cs := in.sub(func() { f.Cond = in.rv(s.Cond) })
			if len(cs) > 0 {
				in.errorf(s.Cond.Pos(), "a for condition that calls a function is not supported; write a while loop")
			}
		}
		if s.Post != nil {
			post := in.sub(func() { in.stmt(s.Post) })
			if len(post) == 1 {
				f.Post = post[0]
			} else if len(post) > 1 {
				in.errorf(s.Post.Pos(), "a for step that calls a function is not supported; write a while loop")
			}
		}
		body := in.sub(func() { in.push(); in.stmt(s.Body); in.pop() })
		f.Body = in.block(body, s.Body.Pos())
		in.emit(f)
		in.pop()
	case *BlockStmt:
		in.push()
		in.seq(s.List)
		in.pop()
	case *BranchStmt:
		in.emit(&BranchStmt{TokPos: in.pos(s.TokPos), Tok: s.Tok})
	case *SwitchStmt, *GotoStmt, *LabeledStmt:
		in.seq([]Stmt{s})
	case *EmptyStmt:
	case *ReturnStmt:
		in.doReturn(s)
	default:
		in.errorf(s.Pos(), "statement not supported in a code test")
	}
}

// decl lowers a local declaration.
func (in *inliner) decl(d *DeclStmt) {
	t := in.lw.typeOfIn(in, d.Type, d.Pos())
	if t == nil {
		return
	}
	name := d.Name.Name
	sc := in.scopes[len(in.scopes)-1]
	if t.kind == kPtr && d.Init != nil && !in.assign[name] {
		v := in.expr(d.Init)
		if v == nil {
			return
		}
		if v.fixed() {
			sc[name] = &binding{t: t, static: &value{t: t, addr: v.addr, fn: v.fn, local: v.local}}
			return
		}
		r := in.newReg(name, t, d)
		sc[name] = &binding{t: t, reg: r}
		in.emit(&AssignStmt{LHS: &Ident{NamePos: in.pos(d.Name.Pos()), Name: r}, OpPos: in.pos(d.Name.Pos()), Op: "=", RHS: in.conv(v), EndPos: in.pos(d.End())})
		return
	}
	if !t.isScalar() {
		in.errorf(d.Pos(), "local %s of type %s: a code test's locals are scalars and pointers (declare objects in the init block)", name, t.name)
		return
	}
	r := in.newReg(name, t, d)
	sc[name] = &binding{t: t, reg: r}
	if d.Init != nil {
		v := in.expr(d.Init)
		if v == nil {
			return
		}
		in.emit(&AssignStmt{LHS: &Ident{NamePos: in.pos(d.Name.Pos()), Name: r}, OpPos: in.pos(d.Name.Pos()), Op: "=", RHS: in.conv(v), EndPos: in.pos(d.End())})
	}
}

// typeOfIn resolves a type in a function of file in.file.
func (lw *lowerer) typeOfIn(in *inliner, s string, p Pos) *ctype {
	n := len(lw.p.errs)
	saved := lw.p.file
	t := lw.typeOf(s, p)
	if len(lw.p.errs) > n && in.file != saved {
		// Re-place the message in the file the type was written in.
		e := lw.p.errs[len(lw.p.errs)-1]
		e.Pos = in.file.Position(p)
	}
	return t
}

func (in *inliner) assignStmt(s *AssignStmt) {
	l := in.lvalue(s.LHS)
	if l == nil {
		return
	}
	var rhs Expr
	if s.RHS != nil {
		v := in.expr(s.RHS)
		if v == nil {
			return
		}
		if s.Op == "=" && l.t.isFuncPtr() {
			in.errorf(s.Pos(), "storing a function pointer at run time is not supported; set it in the init block")
			return
		}
		rhs = in.conv(v)
	}
	lhs := in.lvalExpr(l, s.LHS.Pos())
	if lhs == nil {
		return
	}
	in.noteWrite(lhs)
	in.emit(&AssignStmt{LHS: lhs, OpPos: in.pos(s.OpPos), Op: s.Op, RHS: rhs, EndPos: in.pos(s.End())})
}

// noteWrite records the location a store writes.
func (in *inliner) noteWrite(e Expr) {
	if u, ok := e.(*UnaryExpr); ok && u.Op == "*" {
		if id, ok := u.X.(*Ident); ok && in.params[id.Name] {
			in.lw.written[id.Name] = true
		} else {
			in.lw.written["*"] = true
		}
	}
}

// hasCall reports whether e calls a primitive.
func hasCall(e Expr) bool {
	found := false
	Inspect(e, func(n Node) bool {
		if _, ok := n.(*CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// checkFolds reports a plain pointer read resolved to its initial value
// when some thread writes the location.
func (lw *lowerer) checkFolds() {
	for _, f := range lw.folds {
		if lw.written[f.s.loc] {
			lw.p.errs.Add(f.pos, "pointer "+f.s.path+" is read with a plain access and resolved to its initial value, but a thread writes it; read it with READ_ONCE() or rcu_dereference()")
		}
	}
}
