package axiom

// Linearisations calls visit with every total order of ws that extends
// the pairs of before among them (in a fixed order: ws order first), and
// stops when visit returns false; it reports whether it ran to the end.
// The slice passed to visit is reused.
func Linearisations(ws []int, before Rel, visit func(order []int) bool) bool {
	order := make([]int, 0, len(ws))
	used := make([]bool, len(ws))
	var gen func() bool
	gen = func() bool {
		if len(order) == len(ws) {
			return visit(order)
		}
		for k, w := range ws {
			if used[k] {
				continue
			}
			ok := true
			for k2, w2 := range ws {
				if !used[k2] && k2 != k && before.Has(w2, w) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			used[k] = true
			order = append(order, w)
			if !gen() {
				return false
			}
			order = order[:len(order)-1]
			used[k] = false
		}
		return true
	}
	return gen()
}

// HasLinearisation reports whether before has no cycle among ws, that is
// whether some total order of ws extends it.
func HasLinearisation(ws []int, before Rel) bool {
	left := append([]int(nil), ws...)
	for len(left) > 0 {
		progress := false
		for k := 0; k < len(left); k++ {
			w := left[k]
			free := true
			for _, v := range left {
				if v != w && before.Has(v, w) {
					free = false
					break
				}
			}
			if free {
				left = append(left[:k], left[k+1:]...)
				k--
				progress = true
			}
		}
		if !progress {
			return false
		}
	}
	return true
}
