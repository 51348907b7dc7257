package interp

import (
	"sync"

	"github.com/litmus-dev/litmus/model/cat"
)

// This file decides which intersections and differences may skip their
// second operand when the first is empty. In linux-kernel.cat a test
// without plain accesses has an empty pre-race, and the data-race part
// (xbstar, vis, ww-vis, wr-vis, rw-xbstar...) is used only through
// pre-race & ... or (pre-race & ...) \ ...: skipping the second operand
// there skips that whole part, as the native LKMM does with
// "if !Plain.empty()".
//
// herd evaluates both operands, so skipping one must change nothing. Its
// evaluation must not be able to fail. And the result must be the same:
// 0 & y is 0 whatever y is, and an empty relation & y is that empty
// relation when y is a relation or _ (exact skips). When y may be 0, herd
// gives 0 where the skip gives the empty relation (a loose skip): the two
// differ only as representations, and an operation can tell them apart
// only by failing (0 | S is S, but an empty relation | S an error), by
// comparing values (0 and an empty relation are equal, but _ and the
// full relation, their complements, are not), or by explaining a failed
// check whose value is _. So loose skips are allowed only when no value
// a loose skip may have changed (rep) can reach a failing operation, a
// comparison (let rec, if, sets of values), a "with", or a check whose
// value may be _.
//
// The abstract evaluation (skipper) of the candidate-dependent
// instructions tracks what each value may be, starting from the values
// the execution fixed (the base names and the fixed lets, whose kinds are
// known once the prepass has run), so that its result holds for every
// candidate of the execution; executions whose fixed values have the same
// kinds share it (Model.skips).

// The masks of an operation: the kinds of empty first operand for which
// its second operand may be skipped, exactly or loosely.
const (
	skipZero     uint8 = 1 << iota // 0
	skipRel                        // an empty relation
	skipSet                        // an empty event set
	skipRelLoose                   // an empty relation, loosely
	skipSetLoose                   // an empty event set, loosely
	skipLoose    = skipRelLoose | skipSetLoose
)

// thunkByte encodes what a fixed binding is: its kind, with 0x80 when
// reading it fails (unbound, or its computation failed).
func thunkByte(th *thunk) byte {
	switch {
	case th == nil || th.err != nil:
		return 0x80
	case th.state != 2:
		return 0x80 | byte(akAll)
	}
	return byte(kindsOf(th.v))
}

func byteAval(b byte) aval {
	if b&0x80 != 0 {
		return aval{k: akinds(b &^ 0x80), fail: true}
	}
	return aval{k: akinds(b)}
}

// skipsCache holds the masks computed for each combination of kinds of
// the fixed values.
type skipsCache struct {
	mu sync.Mutex
	m  map[string]map[*cat.Op]uint8
}

// skips returns the skip masks for the execution whose fixed values r
// holds after the prepass.
func (m *Model) skips(r *runner) map[*cat.Op]uint8 {
	key := make([]byte, 0, m.nBase+len(m.fixedSlots))
	rf, fw := m.baseOf("rf"), m.baseOf("FW")
	for i, th := range r.g.base {
		switch i {
		case rf:
			key = append(key, byte(akR))
		case fw:
			key = append(key, byte(akS))
		default:
			key = append(key, thunkByte(th))
		}
	}
	for _, s := range m.fixedSlots {
		key = append(key, thunkByte(r.g.slots[s]))
	}
	c := &m.skipCache
	c.mu.Lock()
	mask, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok {
		return mask
	}
	sk := &skipper{m: m, slots: make([]aval, m.nSlots), base: make([]aval, m.nBase), mask: map[*cat.Op]uint8{}}
	for i := range sk.base {
		sk.base[i] = byteAval(key[i])
	}
	for k, s := range m.fixedSlots {
		sk.slots[s] = byteAval(key[m.nBase+k])
	}
	for name := range primitives {
		if b := m.baseOf(name); b >= 0 && !sk.base[b].fail {
			sk.base[b].fn = &afun{prim: name}
		}
	}
	sk.run()
	if sk.repBad {
		for op, b := range sk.mask {
			sk.mask[op] = b &^ skipLoose
		}
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) > 64 {
		c.m = map[string]map[*cat.Op]uint8{}
	}
	c.m[string(key)] = sk.mask
	c.mu.Unlock()
	return sk.mask
}

// baseOf returns the base slot of a name, or -1.
func (m *Model) baseOf(name string) int {
	if in := m.names[name]; in != nil {
		return in.base
	}
	return -1
}
