package kcomp

import (
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
)

// RCU's grace periods have no instruction sequence in the kernel: a
// grace period ends when every CPU has passed a quiescent state, which
// the scheduler and RCU's kthreads observe; rcu_read_lock() is only
// preempt_disable() in a non-preemptible kernel (model/kmap's rows). So a
// test with synchronize_rcu() is compiled with an implementation of RCU
// built from primitives the mapping does compile: the "toy"
// implementation of Documentation/RCU/whatisRCU.rst (section 5A), a
// reader-writer lock that the readers read-lock and synchronize_rcu()
// write-locks once, here with one spinlock per reader thread:
//
//	rcu_read_lock()    spin_lock(rcu_rl<i>)      (outermost only)
//	rcu_read_unlock()  spin_unlock(rcu_rl<i>)    (outermost only)
//	synchronize_rcu()  smp_mb(); for each reader thread j:
//	                   spin_lock(rcu_rl<j>); spin_unlock(rcu_rl<j>);
//	                   smp_mb()
//
// A reader's critical section either releases its lock before the
// grace period takes it (the section happens before the grace period's
// end) or takes it after the grace period released it (the grace period's
// start happens before the section): RCU's guarantee, with smp_mb() for
// the full barriers synchronize_rcu() implies on either side. This is a
// correct RCU, so what the architecture allows for the test compiled so
// is something RCU allows; but it is one implementation, stricter than
// RCU (readers exclude grace periods instead of only bounding them): an
// architecture's Never may be the LKMM's Sometimes. The retry of each
// spin_lock is the end of the path, as for every lock (package comment),
// so no loop is unrolled. rcuToyBroken (tests only) leaves the locks out,
// the mapping the soundness test must catch.

// rcuPrims are the calls the toy implementation rewrites.
var (
	rcuLock   = map[string]bool{"rcu_read_lock": true}
	rcuUnlock = map[string]bool{"rcu_read_unlock": true}
	rcuSync   = map[string]bool{"synchronize_rcu": true, "synchronize_rcu_expedited": true}
)

// rcuToyBroken compiles synchronize_rcu() as smp_mb() alone and the
// readers as nothing: not an RCU. Only tests set it, to check that the
// soundness test fails on a broken mapping.
var rcuToyBroken = false

// rcuToy returns t with RCU's primitives rewritten as the toy
// implementation's spinlocks, or t itself when t has no grace period
// (rcu_read_lock() is then the compiler barrier of its kmap row: without
// a grace period RCU promises nothing).
func (c *compiler) rcuToy(t *litmus.Test) (*litmus.Test, error) {
	hasSync := false
	names := map[string]bool{}
	for _, pr := range t.Procs {
		for _, prm := range pr.Params {
			names[prm.Name.Name] = true
		}
		litmus.Inspect(pr.Body, func(n litmus.Node) bool {
			switch n := n.(type) {
			case *litmus.CallExpr:
				if rcuSync[n.Fun.Name] {
					hasSync = true
				}
			case *litmus.Ident:
				names[n.Name] = true
			}
			return true
		})
	}
	for _, it := range t.Init {
		names[it.Name] = true
	}
	if !hasSync {
		return t, nil
	}
	t = litmus.Clone(t)
	// The lock of each reader thread, named apart from every name of
	// the test.
	lock := map[int]string{}
	var readers []int
	for _, pr := range t.Procs {
		reads := false
		litmus.Inspect(pr.Body, func(n litmus.Node) bool {
			if call, ok := n.(*litmus.CallExpr); ok && rcuLock[call.Fun.Name] {
				reads = true
			}
			return true
		})
		if !reads {
			continue
		}
		name := fmt.Sprintf("rcu_rl%d", pr.ID)
		for names[name] {
			name += "_"
		}
		names[name] = true
		lock[pr.ID] = name
		readers = append(readers, pr.ID)
	}
	for _, pr := range t.Procs {
		rw := &rcuRewriter{c: c, lock: lock, readers: readers, self: pr.ID, used: map[string]bool{}}
		depth, err := rw.list(pr.Body.List, 0, &pr.Body.List)
		if err != nil {
			return nil, err
		}
		if depth != 0 {
			return nil, c.unsupported(pr.Body.Rbrace, "P%d ends inside an RCU read-side critical section (rcu_read_lock() without rcu_read_unlock())", pr.ID)
		}
		for _, id := range readers {
			if n := lock[id]; rw.used[n] {
				pr.Params = append(pr.Params, &litmus.Param{Type: "spinlock_t *", Name: &litmus.Ident{NamePos: pr.Pos(), Name: n}})
			}
		}
	}
	return t, nil
}

// rcuRewriter rewrites one thread's RCU primitives.
type rcuRewriter struct {
	c       *compiler
	lock    map[int]string // each reader thread's lock
	readers []int
	self    int
	used    map[string]bool // the locks this thread takes
}

// list rewrites the statements of a block entered at nesting depth
// depth of read-side critical sections, storing the new list in out, and
// returns the depth at its end.
func (rw *rcuRewriter) list(stmts []litmus.Stmt, depth int, out *[]litmus.Stmt) (int, error) {
	var res []litmus.Stmt
	for _, s := range stmts {
		ns, d, err := rw.stmt(s, depth)
		if err != nil {
			return 0, err
		}
		depth = d
		if ns != nil {
			res = append(res, ns)
		}
	}
	*out = res
	return depth, nil
}

// stmt rewrites one statement at depth depth; it returns the statement
// to keep (nil for none) and the depth after it.
func (rw *rcuRewriter) stmt(s litmus.Stmt, depth int) (litmus.Stmt, int, error) {
	c := rw.c
	// inner rewrites a branch or a loop body: its read-side sections
	// must be balanced, so that the depth counted in the program text
	// is the depth at run time.
	inner := func(body litmus.Stmt) (litmus.Stmt, error) {
		if body == nil {
			return nil, nil
		}
		var list []litmus.Stmt
		d, err := rw.list([]litmus.Stmt{body}, depth, &list)
		if err != nil {
			return nil, err
		}
		if d != depth {
			return nil, c.unsupported(body.Pos(), "an RCU read-side critical section that a branch or a loop opens or closes: the toy RCU's nesting is counted in the program text")
		}
		if len(list) == 0 {
			return &litmus.EmptyStmt{Semi: body.Pos()}, nil
		}
		return list[0], nil
	}
	var err error
	switch s := s.(type) {
	case *litmus.ExprStmt:
		call, ok := s.X.(*litmus.CallExpr)
		if !ok {
			break
		}
		name := call.Fun.Name
		switch {
		case rcuLock[name]:
			if depth > 0 || rcuToyBroken {
				return nil, depth + 1, nil // nested: the outermost section holds the lock
			}
			return rw.call(call, "spin_lock", rw.lock[rw.self]), 1, nil
		case rcuUnlock[name]:
			if depth == 0 {
				return nil, 0, c.unsupported(call.Pos(), "rcu_read_unlock() outside an RCU read-side critical section")
			}
			if depth > 1 || rcuToyBroken {
				return nil, depth - 1, nil
			}
			return rw.call(call, "spin_unlock", rw.lock[rw.self]), 0, nil
		case rcuSync[name]:
			b := &litmus.BlockStmt{Lbrace: call.Pos(), Rbrace: call.Rparen}
			b.List = append(b.List, rw.call(call, "smp_mb", ""))
			for _, id := range rw.readers {
				if rcuToyBroken {
					break
				}
				b.List = append(b.List, rw.call(call, "spin_lock", rw.lock[id]), rw.call(call, "spin_unlock", rw.lock[id]))
			}
			b.List = append(b.List, rw.call(call, "smp_mb", ""))
			return b, depth, nil
		}
	case *litmus.BlockStmt:
		d, err := rw.list(s.List, depth, &s.List)
		return s, d, err
	case *litmus.IfStmt:
		if s.Then, err = inner(s.Then); err == nil {
			s.Else, err = inner(s.Else)
		}
	case *litmus.WhileStmt:
		s.Body, err = inner(s.Body)
	case *litmus.DoWhileStmt:
		s.Body, err = inner(s.Body)
	case *litmus.ForStmt:
		s.Body, err = inner(s.Body)
	}
	return s, depth, err
}

// call returns the statement prim(lock) (prim() when lock is ""), at the
// position of the call it replaces.
func (rw *rcuRewriter) call(at *litmus.CallExpr, prim, lock string) litmus.Stmt {
	ce := &litmus.CallExpr{Fun: &litmus.Ident{NamePos: at.Fun.NamePos, Name: prim}, Lparen: at.Lparen, Rparen: at.Rparen}
	if lock != "" {
		rw.used[lock] = true
		ce.Args = []litmus.Expr{&litmus.Ident{NamePos: at.Lparen, Name: lock}}
	}
	return &litmus.ExprStmt{X: ce, EndPos: at.Rparen + 1}
}
