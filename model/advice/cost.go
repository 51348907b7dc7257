package advice

import (
	"math/bits"
	"strings"

	"github.com/litmus-dev/litmus/model/kmap"
)

// The cost of a primitive on an architecture is the ordering its
// instructions give (model/kmap's rows), as a set: a primitive whose set
// is a subset of another's is the cheaper one there, and two whose sets
// are not nested are incomparable, as STLR (orders every earlier access
// before one store) and DMB ISHST (orders every earlier store before
// every later store) are on arm64. Ordering strength is the measure
// because it is what the hardware pays for and what the kernel's own
// documentation ranks primitives by (Documentation/memory-barriers.txt:
// a write barrier is a partial ordering, a general barrier the
// strongest); cycle counts differ between implementations of one
// architecture and are not part of the mapping.

// order is a set of orderings. The first four are global: every earlier
// access of the first kind before every later access of the second, as
// a fence gives. The others are local to one access: an acquire orders
// its own load before every later read or write, a release every earlier
// read or write before its own store.
type order uint8

const (
	oRR order = 1 << iota
	oRW
	oWR
	oWW
	oAcqR // this load before later reads
	oAcqW // this load before later writes
	oRelR // earlier reads before this store
	oRelW // earlier writes before this store

	oFull    = oRR | oRW | oWR | oWW
	oAcquire = oAcqR | oAcqW
	oRelease = oRelR | oRelW
)

// cover closes o under implication: a global ordering implies the local
// ones it contains (R->R for every pair implies it for this load and
// every later read, and so on).
func (o order) cover() order {
	if o&oRR != 0 {
		o |= oAcqR
	}
	if o&oRW != 0 {
		o |= oAcqW | oRelR
	}
	if o&oWW != 0 {
		o |= oRelW
	}
	return o
}

// leq reports whether o orders no more than p.
func (o order) leq(p order) bool { return o.cover()&^p.cover() == 0 }

// weight is the size of the covered set, a linear extension of leq used
// to try cheaper primitives first.
func (o order) weight() int { return bits.OnesCount8(uint8(o.cover())) }

// arches are the architectures of the mapping, in the order they print.
var arches = kmap.Arches()

// archCost is the ordering of a sequence of primitives on one
// architecture, and the instructions that give it.
type archCost struct {
	order order
	insns []string // the ordering instructions, "dmb ish", "stlr"
	known bool     // every primitive has a row
}

// costOf returns the cost of prims on a: the union of the orderings of
// their rows' instructions.
func costOf(a kmap.Arch, prims []string) archCost {
	c := archCost{known: true}
	for _, p := range prims {
		r, _, ok := kmap.Lookup(a, p)
		if !ok {
			c.known = false
			c.order |= oFull
			continue
		}
		insns, err := kmap.Parse(r.Code)
		if err != nil {
			c.known = false
			c.order |= oFull
			continue
		}
		for _, in := range insns {
			if o := insnOrder(a, in); o != 0 {
				c.order |= o
				c.insns = append(c.insns, insnName(a, in))
			}
		}
	}
	return c
}

// String prints the instructions, "nothing" for none.
func (c archCost) String() string {
	if !c.known {
		return "(no mapping)"
	}
	if len(c.insns) == 0 {
		return "nothing"
	}
	return strings.Join(c.insns, "; ")
}

// insnName is how an ordering instruction prints: a fence with its
// operands ("dmb ish", "fence rw,w"), an access by its mnemonic ("stlr",
// "lock xaddq").
func insnName(a kmap.Arch, in kmap.Insn) string {
	switch in.Op {
	case "dmb", "dsb", "fence":
		return in.Op + " " + strings.Join(in.Args, ",")
	}
	if in.Prefix != "" {
		return in.Prefix + " " + in.Op
	}
	return in.Op
}

// insnOrder is the ordering one instruction gives on a.
func insnOrder(a kmap.Arch, in kmap.Insn) order {
	op := in.Op
	switch a {
	case kmap.X86_64:
		// A LOCK'd instruction and XCHG (locked implicitly) are full
		// barriers (Intel SDM vol. 3, 8.2.2); so is MFENCE. x86-TSO
		// orders everything else but a store before a later load, so
		// LFENCE and SFENCE add nothing for ordinary accesses.
		switch {
		case in.Prefix == "lock", strings.HasPrefix(op, "xchg"), op == "mfence":
			return oFull
		}
	case kmap.ARM64, kmap.ARM64LLSC:
		switch op {
		case "dmb", "dsb":
			opt := ""
			if len(in.Args) > 0 {
				opt = in.Args[0]
			}
			switch {
			case strings.HasSuffix(opt, "ld"):
				return oRR | oRW
			case strings.HasSuffix(opt, "st"):
				return oWW
			}
			return oFull
		case "isb":
			return oAcquire // after a control dependency
		}
		if strings.HasPrefix(op, "ldar") || strings.HasPrefix(op, "ldapr") || strings.HasPrefix(op, "ldaxr") {
			return oAcquire
		}
		if strings.HasPrefix(op, "stlr") || strings.HasPrefix(op, "stlxr") {
			return oRelease
		}
		if ord, ok := lseOrder(op); ok {
			return ord
		}
	case kmap.RISCV64:
		switch {
		case op == "fence":
			if len(in.Args) != 2 {
				return oFull
			}
			var o order
			pred, succ := in.Args[0], in.Args[1]
			for _, p := range pred {
				for _, s := range succ {
					switch string(p) + string(s) {
					case "rr":
						o |= oRR
					case "rw":
						o |= oRW
					case "wr":
						o |= oWR
					case "ww":
						o |= oWW
					}
				}
			}
			return o
		case op == "fence.tso":
			return oRR | oRW | oWW
		case strings.HasSuffix(op, ".aqrl"):
			// An AMO with both bits is the kernel's fully ordered
			// atomic (arch/riscv/include/asm/atomic.h).
			return oFull
		case strings.HasSuffix(op, ".aq"):
			return oAcquire
		case strings.HasSuffix(op, ".rl"):
			return oRelease
		}
	case kmap.PPC64:
		switch op {
		case "sync", "hwsync":
			return oFull
		case "lwsync":
			return oRR | oRW | oWW
		case "isync":
			return oAcquire // after a control dependency
		case "eieio":
			return oWW
		}
	}
	return 0
}

// lseOrder reads an arm64 LSE atomic's ordering suffix: "ldaddal" is
// ldadd with acquire and release, which the kernel uses as its fully
// ordered form (arch/arm64/include/asm/atomic_lse.h has no DMB around
// them).
func lseOrder(op string) (order, bool) {
	for _, b := range []string{"swp", "cas", "ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin", "ldumax", "ldumin", "stadd", "stclr", "steor", "stset"} {
		if !strings.HasPrefix(op, b) {
			continue
		}
		switch op[len(b):] {
		case "":
			return 0, true
		case "a":
			return oAcquire, true
		case "l":
			return oRelease, true
		case "al":
			return oFull, true
		}
	}
	return 0, false
}

// cost is a candidate's cost on every architecture.
type cost []archCost

func costOfAll(prims []string) cost {
	c := make(cost, len(arches))
	for i, a := range arches {
		c[i] = costOf(a, prims)
	}
	return c
}

// weight is the sum of the architectures' weights.
func (c cost) weight() int {
	w := 0
	for _, a := range c {
		w += a.order.weight()
	}
	return w
}

// compare says how c relates to d on each architecture.
type relation int

const (
	same relation = iota
	cheaper
	dearer
	incomparable
)

func (c cost) rel(i int, d cost) relation {
	a, b := c[i].order, d[i].order
	switch {
	case a.cover() == b.cover():
		return same
	case a.leq(b):
		return cheaper
	case b.leq(a):
		return dearer
	}
	return incomparable
}

// weaker reports whether c is no dearer than d on every architecture and
// cheaper on one: a weakening of d.
func (c cost) weaker(d cost) bool {
	some := false
	for i := range c {
		switch c.rel(i, d) {
		case cheaper:
			some = true
		case dearer, incomparable:
			return false
		}
	}
	return some
}

// tradeoff reports whether c is cheaper than d on some architecture,
// dearer on none and incomparable on some: an alternative worth naming,
// not a weakening.
func (c cost) tradeoff(d cost) bool {
	some, inc := false, false
	for i := range c {
		switch c.rel(i, d) {
		case cheaper:
			some = true
		case dearer:
			return false
		case incomparable:
			inc = true
		}
	}
	return some && inc
}

// somewhereCheaper reports whether c is cheaper than d, or incomparable
// to it, on some architecture: d does not beat it everywhere.
func (c cost) somewhereCheaper(d cost) bool {
	for i := range c {
		if r := c.rel(i, d); r == cheaper || r == incomparable {
			return true
		}
	}
	return false
}
