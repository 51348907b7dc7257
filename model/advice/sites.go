package advice

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

// Kind is the kind of an ordering construct.
type Kind string

// The kinds of construct advice is given for.
const (
	Fence   Kind = "fence"   // smp_mb(), smp_wmb(), smp_mb__after_atomic(), ...
	Acquire Kind = "acquire" // smp_load_acquire(), atomic_read_acquire()
	Release Kind = "release" // smp_store_release(), atomic_set_release()
	RMW     Kind = "rmw"     // an atomic read-modify-write with an ordering
)

// construct is one ordering construct of the test as written and the
// cheaper primitives that could replace it.
type construct struct {
	pos    litmus.Pos
	thread int
	kind   Kind
	text   string
	cost   cost         // of the construct and the neighbours its candidates touch
	cands  []*candidate // weakenings and trade-offs, cheapest first
	none   string       // why there is no candidate, when there is none
}

// candidate is one replacement of a construct.
type candidate struct {
	// suggest is the source text of the primitive that replaces the
	// construct, "" when it is removed.
	suggest string
	label   string // how it prints: "nothing", "smp_wmb()", "smp_store_release(y, 1) (line 12)"
	edits   []edit
	cost    cost
	weaker  bool   // a weakening (else a trade-off: cheaper somewhere, incomparable elsewhere)
	note    string // what it relies on
}

// edit replaces one statement, or one call, of the test. Edits name
// their target by position, so a set of them applies to any copy of the
// test.
type edit struct {
	stmt  litmus.Pos       // a statement to replace with stmts (none: removed)
	stmts []litmus.Stmt    //
	call  litmus.Pos       // or a call to replace with repl
	repl  *litmus.CallExpr //
	end   litmus.Pos       // the end of the statement or call replaced
	line  int
	from  string // source text before and after, for the report
	to    string
}

func (e edit) target() litmus.Pos {
	if e.stmt != litmus.NoPos {
		return e.stmt
	}
	return e.call
}

// frame is one level of the statements enclosing a construct: the list
// it is in, its index there, and the compound statement owning the list
// (nil for a thread's body).
type frame struct {
	list  []litmus.Stmt
	idx   int
	owner litmus.Stmt
}

// finder walks one thread.
type finder struct {
	t      *litmus.Test
	thread int
	out    []*construct
}

// constructs lists the ordering constructs of C test t in source order.
func constructs(t *litmus.Test) []*construct {
	var out []*construct
	for _, p := range t.Procs {
		if p.Body == nil {
			continue
		}
		f := &finder{t: t, thread: p.ID}
		f.block(p.Body.List, nil, nil)
		out = append(out, f.out...)
	}
	return out
}

// block visits the statements of a list, path being the frames above it.
func (f *finder) block(list []litmus.Stmt, owner litmus.Stmt, path []frame) {
	for i, s := range list {
		here := append(append([]frame(nil), path...), frame{list: list, idx: i, owner: owner})
		f.stmt(s, here)
	}
}

func (f *finder) stmt(s litmus.Stmt, path []frame) {
	sub := func(b litmus.Stmt) {
		if b == nil {
			return
		}
		if blk, ok := b.(*litmus.BlockStmt); ok {
			f.block(blk.List, s, path)
			return
		}
		f.block([]litmus.Stmt{b}, s, path)
	}
	switch s := s.(type) {
	case *litmus.BlockStmt:
		f.block(s.List, s, path)
		return
	case *litmus.IfStmt:
		f.calls(s.Cond, nil, path)
		sub(s.Then)
		sub(s.Else)
		return
	case *litmus.WhileStmt:
		f.calls(s.Cond, nil, path)
		sub(s.Body)
		return
	case *litmus.DoWhileStmt:
		sub(s.Body)
		f.calls(s.Cond, nil, path)
		return
	case *litmus.ForStmt:
		sub(s.Body)
		return
	}
	f.calls(s, s, path)
}

// calls finds the constructs among the calls below n; st is the simple
// statement n is, or nil for a condition.
func (f *finder) calls(n litmus.Node, st litmus.Stmt, path []frame) {
	if n == nil {
		return
	}
	litmus.Inspect(n, func(n litmus.Node) bool {
		c, ok := n.(*litmus.CallExpr)
		if !ok {
			return true
		}
		if k := f.construct(c, st, path); k != nil {
			f.out = append(f.out, k)
		}
		return true
	})
}

// construct returns the construct call c is, or nil.
func (f *finder) construct(c *litmus.CallExpr, st litmus.Stmt, path []frame) *construct {
	p, ok := f.t.Primitive(c.Fun.Name)
	if !ok {
		return nil
	}
	k := &construct{pos: c.Pos(), thread: f.thread, text: litmus.ExprString(c)}
	switch {
	case p.Kind == litmus.KFence:
		switch p.Fence {
		case "mb", "rmb", "wmb", "before-atomic", "after-atomic", "after-spinlock":
		default:
			return nil // compiler barriers, RCU and SRCU markers: not ordering to trade
		}
		es, ok := st.(*litmus.ExprStmt)
		if !ok || es.X != c {
			return nil
		}
		k.kind = Fence
		f.fenceCands(k, c, es, path)
	case p.Kind == litmus.KLoad && p.Order&litmus.OrdAcquire != 0:
		k.kind = Acquire
		f.acquireCands(k, c, p, st)
	case p.Kind == litmus.KStore && p.Order&litmus.OrdRelease != 0 && p.Name != "rcu_assign_pointer":
		k.kind = Release
		f.releaseCands(k, c, p, st)
	case p.Kind == litmus.KRMW && !p.NonAtomic && (p.Order != litmus.OrdOnce || p.FailOrder != litmus.OrdOnce):
		k.kind = RMW
		f.rmwCands(k, c, p)
	default:
		return nil
	}
	return k
}

// line is the source line of pos.
func (f *finder) line(pos litmus.Pos) int { return f.t.File.Position(pos).Line }

// call builds a call of name at c's positions.
func call(c *litmus.CallExpr, name string, args ...litmus.Expr) *litmus.CallExpr {
	return &litmus.CallExpr{Fun: &litmus.Ident{NamePos: c.Fun.NamePos, Name: name}, Lparen: c.Lparen, Args: args, Rparen: c.Rparen}
}

// fenceStmt is "name();" at c's positions.
func fenceStmt(c *litmus.CallExpr, name string) litmus.Stmt {
	return &litmus.ExprStmt{X: call(c, name), EndPos: c.End()}
}

// addrOf returns a pointer to lvalue l: p for *p, &l otherwise.
func addrOf(l litmus.Expr) litmus.Expr {
	if u, ok := l.(*litmus.UnaryExpr); ok && u.Op == "*" {
		return u.X
	}
	return &litmus.UnaryExpr{OpPos: l.Pos(), Op: "&", X: l}
}

// deref returns the lvalue pointer p points to: l for &l, *p otherwise.
func deref(p litmus.Expr) litmus.Expr {
	if u, ok := p.(*litmus.UnaryExpr); ok && u.Op == "&" {
		return u.X
	}
	return &litmus.UnaryExpr{OpPos: p.Pos(), Op: "*", X: p}
}

// The marked accesses and their ordered forms, both ways. The plain C
// accesses "r = *p" and "*p = v" become smp_load_acquire(p) and
// smp_store_release(p, v); a marked access is never advised to become
// plain, which is a question of data races (the LKMM's plain-access
// rules and the kernel's style), not of ordering.
var (
	acquireOf = map[string]string{"READ_ONCE": "smp_load_acquire", "atomic_read": "atomic_read_acquire", "atomic_long_read": "atomic_long_read_acquire"}
	releaseOf = map[string]string{"WRITE_ONCE": "smp_store_release", "atomic_set": "atomic_set_release", "atomic_long_set": "atomic_long_set_release"}
	onceOf    = map[string]string{"smp_load_acquire": "READ_ONCE", "atomic_read_acquire": "atomic_read", "atomic_long_read_acquire": "atomic_long_read",
		"smp_store_release": "WRITE_ONCE", "atomic_set_release": "atomic_set", "atomic_long_set_release": "atomic_long_set"}
)

// primsOf lists the primitives a statement executes, with kmap's
// pseudo-primitives for plain loads and stores.
func (f *finder) primsOf(s litmus.Stmt) []string {
	var out []string
	litmus.Inspect(s, func(n litmus.Node) bool {
		switch n := n.(type) {
		case *litmus.CallExpr:
			if _, ok := f.t.Primitive(n.Fun.Name); ok {
				out = append(out, n.Fun.Name)
			}
		case *litmus.AssignStmt:
			if u, ok := n.LHS.(*litmus.UnaryExpr); ok && u.Op == "*" {
				out = append(out, kmap.PlainStore)
			}
		case *litmus.UnaryExpr:
			if n.Op == "*" {
				out = append(out, kmap.PlainLoad)
			}
		}
		return true
	})
	return out
}

// access is a simple statement that is one marked or plain access: a
// load "r = READ_ONCE(*x);" or a store "WRITE_ONCE(*x, v);".
type access struct {
	stmt litmus.Stmt
	load bool
	reg  string           // the register a load writes
	call *litmus.CallExpr // nil for a plain access
	loc  litmus.Expr      // the lvalue accessed
	val  litmus.Expr      // the value a store writes
}

// accessOf returns the access s is, if it is one.
func (f *finder) accessOf(s litmus.Stmt) (access, bool) {
	load := func(reg string, rhs litmus.Expr) (access, bool) {
		switch e := rhs.(type) {
		case *litmus.CallExpr:
			if p, ok := f.t.Primitive(e.Fun.Name); ok && p.Kind == litmus.KLoad && len(e.Args) == 1 {
				loc := e.Args[0]
				if p.Args[0] == litmus.ArgPtr {
					loc = deref(loc)
				}
				return access{stmt: s, load: true, reg: reg, call: e, loc: loc}, true
			}
		case *litmus.UnaryExpr:
			if e.Op == "*" {
				return access{stmt: s, load: true, reg: reg, loc: e}, true
			}
		}
		return access{}, false
	}
	switch s := s.(type) {
	case *litmus.AssignStmt:
		if s.Op != "=" {
			return access{}, false
		}
		if id, ok := s.LHS.(*litmus.Ident); ok {
			return load(id.Name, s.RHS)
		}
		if u, ok := s.LHS.(*litmus.UnaryExpr); ok && u.Op == "*" && !hasMemory(f.t, s.RHS) {
			return access{stmt: s, loc: u, val: s.RHS}, true
		}
	case *litmus.DeclStmt:
		if s.Init != nil {
			return load(s.Name.Name, s.Init)
		}
	case *litmus.ExprStmt:
		if c, ok := s.X.(*litmus.CallExpr); ok {
			if p, ok := f.t.Primitive(c.Fun.Name); ok && p.Kind == litmus.KStore && len(c.Args) == 2 && p.Fence == "" {
				loc := c.Args[0]
				if p.Args[0] == litmus.ArgPtr {
					loc = deref(loc)
				}
				return access{stmt: s, call: c, loc: loc, val: c.Args[1]}, true
			}
		}
	}
	return access{}, false
}

// hasMemory reports whether e reads memory: a primitive call or a
// dereference.
func hasMemory(t *litmus.Test, n litmus.Node) bool {
	found := false
	litmus.Inspect(n, func(n litmus.Node) bool {
		switch n := n.(type) {
		case *litmus.CallExpr:
			if _, ok := t.Primitive(n.Fun.Name); ok {
				found = true
			}
		case *litmus.UnaryExpr:
			if n.Op == "*" {
				found = true
			}
		}
		return !found
	})
	return found
}

// registerOnly reports whether s touches no memory and orders nothing
// ("r2 = 0;", "int r0;"), so that a neighbour is looked for past it.
func registerOnly(t *litmus.Test, s litmus.Stmt) bool {
	switch s.(type) {
	case *litmus.AssignStmt, *litmus.DeclStmt, *litmus.ExprStmt, *litmus.EmptyStmt:
		return !hasMemory(t, s)
	}
	return false
}

// simple reports whether s is a statement with no statements inside.
func simple(s litmus.Stmt) bool {
	switch s.(type) {
	case *litmus.AssignStmt, *litmus.DeclStmt, *litmus.ExprStmt:
		return true
	}
	return false
}

// neighbour walks from the construct at the innermost frame of path in
// program order, backward (dir -1) or forward (+1), past statements that
// touch no memory, leaving an if (never a loop) through its condition
// (backward) or its end (forward), and returns the first simple
// statement that stop accepts; nil at any other statement. skip says
// which memory statements may be walked past (for the RMW before an
// smp_mb__after_atomic()).
func (f *finder) neighbour(path []frame, dir int, stop, skip func(litmus.Stmt) bool) litmus.Stmt {
	for lvl := len(path) - 1; lvl >= 0; lvl-- {
		fr := path[lvl]
		for i := fr.idx + dir; i >= 0 && i < len(fr.list); i += dir {
			s := fr.list[i]
			switch {
			case simple(s) && stop(s):
				return s
			case registerOnly(f.t, s), simple(s) && skip(s):
				continue
			}
			return nil
		}
		switch o := fr.owner.(type) {
		case nil:
			return nil
		case *litmus.IfStmt:
			if dir < 0 && hasMemory(f.t, o.Cond) {
				return nil
			}
		case *litmus.BlockStmt:
		default:
			return nil // a loop: its other iterations are neighbours too
		}
	}
	return nil
}

// hasRMW reports whether s performs an atomic RMW.
func (f *finder) hasRMW(s litmus.Stmt) *litmus.CallExpr {
	var found *litmus.CallExpr
	litmus.Inspect(s, func(n litmus.Node) bool {
		if c, ok := n.(*litmus.CallExpr); ok && found == nil {
			if p, ok := f.t.Primitive(c.Fun.Name); ok && p.Kind == litmus.KRMW && !p.NonAtomic {
				found = c
			}
		}
		return found == nil
	})
	return found
}

func never(litmus.Stmt) bool { return false }

// argFor is lvalue loc as the location argument of primitive name: a
// pointer for smp_load_acquire(p), the lvalue for READ_ONCE(*p).
func (f *finder) argFor(name string, loc litmus.Expr) litmus.Expr {
	if p, ok := f.t.Primitive(name); ok && len(p.Args) > 0 && p.Args[0] == litmus.ArgLval {
		return loc
	}
	return addrOf(loc)
}

// callAt builds a call of name spanning [pos, end).
func callAt(pos, end litmus.Pos, name string, args ...litmus.Expr) *litmus.CallExpr {
	return &litmus.CallExpr{Fun: &litmus.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: end - 1}
}

// loadStmt is load statement a with the load made name: "r =
// READ_ONCE(*x);" becomes "r = smp_load_acquire(x);".
func (f *finder) loadStmt(a access, name string) litmus.Stmt {
	rhs := callAt(a.stmt.Pos(), a.stmt.End(), name, f.argFor(name, a.loc))
	switch s := a.stmt.(type) {
	case *litmus.AssignStmt:
		c := *s
		c.RHS = rhs
		return &c
	case *litmus.DeclStmt:
		c := *s
		c.Init = rhs
		return &c
	}
	return nil
}

// storeStmt is store statement a made a call of name: "WRITE_ONCE(*x,
// 1);" becomes "smp_store_release(x, 1);".
func (f *finder) storeStmt(a access, name string) litmus.Stmt {
	return &litmus.ExprStmt{X: callAt(a.stmt.Pos(), a.stmt.End(), name, f.argFor(name, a.loc), a.val), EndPos: a.stmt.End()}
}

// stmtText prints a simple statement as source, without the ';'.
func stmtText(s litmus.Stmt) string {
	switch s := s.(type) {
	case *litmus.ExprStmt:
		return litmus.ExprString(s.X)
	case *litmus.AssignStmt:
		if s.RHS == nil {
			return litmus.ExprString(s.LHS) + s.Op
		}
		return litmus.ExprString(s.LHS) + " " + s.Op + " " + litmus.ExprString(s.RHS)
	case *litmus.DeclStmt:
		if s.Init == nil {
			return s.Type + " " + s.Name.Name
		}
		return strings.TrimSpace(s.Type+" "+s.Name.Name) + " = " + litmus.ExprString(s.Init)
	}
	return ""
}
