package axiom

import "math/bits"

// This file computes the transitive closure and the acyclicity of a
// relation in time proportional to its edges times the words of a row:
// in topological order when it is acyclic (Kahn's algorithm), else by its
// strongly connected components (Tarjan's algorithm, iterative). The
// closure by Warshall's loops costs n² row tests whatever the relation
// holds; the relations a model closes (hb, pb, cumul-fence, the ppo
// parts) have a few edges a row, and the 12–19-thread RCU rings spent
// most of their model time there.

// sccScratch is the per-arena working memory of the walks.
type sccScratch struct {
	index, low, comp, stack, frameV, frameW []int32
	frameX                                  []uint64
	indeg, order                            []int32
}

func (a *Arena) scc(n int) *sccScratch {
	var s *sccScratch
	if a == nil {
		s = &sccScratch{}
	} else {
		if a.sccs == nil {
			a.sccs = &sccScratch{}
		}
		s = a.sccs
	}
	if cap(s.index) < n {
		s.index, s.low, s.comp = make([]int32, n), make([]int32, n), make([]int32, n)
		s.stack, s.frameV, s.frameW = make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n)
		s.frameX = make([]uint64, 0, n)
		s.indeg, s.order = make([]int32, n), make([]int32, 0, n)
	}
	s.index, s.low, s.comp = s.index[:n], s.low[:n], s.comp[:n]
	clear(s.index)
	s.stack, s.frameV, s.frameW, s.frameX = s.stack[:0], s.frameV[:0], s.frameW[:0], s.frameX[:0]
	return s
}

// tarjan walks r's strongly connected components, each after every
// component it reaches, and sets u's rows to r+ (u's words are
// overwritten). It reports whether r is acyclic.
func (r Rel) tarjan(u Rel) bool {
	n, w := r.n, r.w
	s := r.al.scc(n)
	acyclic := true
	next := int32(1)
	comps := int32(0)
	push := func(v int) {
		s.index[v], s.low[v] = next, next
		next++
		s.comp[v] = -1
		s.stack = append(s.stack, int32(v))
		s.frameV = append(s.frameV, int32(v))
		s.frameW = append(s.frameW, 0)
		s.frameX = append(s.frameX, r.b[v*w])
	}
	for root := 0; root < n; root++ {
		if s.index[root] != 0 {
			continue
		}
		if root&63 == 63 {
			r.al.Poll()
		}
		push(root)
		for len(s.frameV) > 0 {
			top := len(s.frameV) - 1
			v := int(s.frameV[top])
			x := s.frameX[top]
			for x == 0 && int(s.frameW[top])+1 < w {
				s.frameW[top]++
				x = r.b[v*w+int(s.frameW[top])]
			}
			if x != 0 {
				t := int(s.frameW[top])*64 + bits.TrailingZeros64(x)
				s.frameX[top] = x & (x - 1)
				switch {
				case s.index[t] == 0:
					push(t)
				case s.comp[t] < 0: // on the stack
					s.low[v] = min(s.low[v], s.index[t])
				}
				continue
			}
			s.frameX[top] = 0
			s.frameV, s.frameW, s.frameX = s.frameV[:top], s.frameW[:top], s.frameX[:top]
			if top > 0 {
				p := s.frameV[top-1]
				s.low[p] = min(s.low[p], s.low[v])
			}
			if s.low[v] != s.index[v] {
				continue
			}
			// v roots a component: the stack down to v.
			k := len(s.stack) - 1
			for s.stack[k] != int32(v) {
				k--
			}
			members := s.stack[k:]
			s.stack = s.stack[:k]
			for _, m := range members {
				s.comp[m] = comps
			}
			if len(members) > 1 || r.Has(v, v) {
				acyclic = false
			}
			r.closeComponent(u, members, s.comp, comps)
			comps++
		}
	}
	return acyclic
}

// closeComponent sets the rows of u for the members of one component
// whose successors outside it are closed already: each row is the
// successors, their closures, and the component itself when it is
// cyclic.
func (r Rel) closeComponent(u Rel, members []int32, comp []int32, c int32) {
	w := r.w
	acc := u.b[int(members[0])*w : (int(members[0])+1)*w]
	clear(acc)
	for _, m := range members {
		row := r.b[int(m)*w : (int(m)+1)*w]
		for wi, x := range row {
			for ; x != 0; x &= x - 1 {
				t := wi*64 + bits.TrailingZeros64(x)
				acc[wi] |= 1 << (uint(t) & 63)
				if comp[t] != c {
					for k, y := range u.b[t*w : (t+1)*w] {
						acc[k] |= y
					}
				}
			}
		}
	}
	if len(members) > 1 {
		for _, m := range members {
			acc[m>>6] |= 1 << (uint(m) & 63)
		}
	}
	for _, m := range members[1:] {
		copy(u.b[int(m)*w:(int(m)+1)*w], acc)
	}
}

// topo sorts r's events topologically (Kahn's algorithm: events whose
// predecessors are all sorted, in turn) into the scratch's order, and
// reports whether every event got sorted, that is whether r is acyclic.
// Most relations a model closes are acyclic, and this is two passes over
// the edges where the component walk keeps a stack of frames.
func (r Rel) topo() (*sccScratch, bool) {
	n, w := r.n, r.w
	s := r.al.scc(n)
	indeg := s.indeg[:n]
	clear(indeg)
	for wi, x := range r.b {
		base := (wi % w) * 64
		for ; x != 0; x &= x - 1 {
			indeg[base+bits.TrailingZeros64(x)]++
		}
	}
	order := s.order[:0]
	for v := range n {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for i := 0; i < len(order); i++ {
		v := int(order[i])
		for wi, x := range r.b[v*w : (v+1)*w] {
			for ; x != 0; x &= x - 1 {
				t := wi*64 + bits.TrailingZeros64(x)
				if indeg[t]--; indeg[t] == 0 {
					order = append(order, int32(t))
				}
			}
		}
	}
	s.order = order
	return s, len(order) == n
}

// closeTopo sets u to r+ for an acyclic r sorted by topo: each row is
// its successors and their rows, from the last event of the order back.
func (r Rel) closeTopo(u Rel, order []int32) {
	w := r.w
	for i := len(order) - 1; i >= 0; i-- {
		v := int(order[i])
		acc := u.b[v*w : (v+1)*w]
		row := r.b[v*w : (v+1)*w]
		copy(acc, row)
		for wi, x := range row {
			for ; x != 0; x &= x - 1 {
				t := wi*64 + bits.TrailingZeros64(x)
				for k, y := range u.b[t*w : (t+1)*w] {
					acc[k] |= y
				}
			}
		}
	}
}

// PlusCheck returns r+ and reports whether r is acyclic: the two
// questions a model asks of hb and pb, answered in one walk.
func (r Rel) PlusCheck() (Rel, bool) {
	r.al.Tick()
	u := r.dirty()
	if s, ok := r.topo(); ok {
		r.closeTopo(u, s.order)
		return u, true
	}
	r.tarjan(u)
	return u, false
}
