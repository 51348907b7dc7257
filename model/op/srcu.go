package op

import (
	"fmt"
	"strings"
)

// This file gives SRCU read-side sections their cross-thread meaning.
//
// srcu_down_read(s) and srcu_up_read(s, idx) may run in different threads
// (Documentation/RCU/checklist.rst; LKMM matches them through the data
// flow of idx, linux-kernel.bell, srcu-rscs). Here a section is identified
// by its srcu_struct and the index value: srcu_read_lock and
// srcu_down_read return 0, as in LKMM, where the lock is a load of the
// srcu_struct that only the unlocks write (storing back the index). An
// unlock in a thread that has no section of s open of its own ends the
// one section of s another thread has open. With none open, it is
// remembered as a debt, as the kernel's reader count for the index would
// go below zero: the next srcu_read_lock or srcu_down_read of s starts a
// section that is already over for grace periods. An unlock whose index
// is not 0 names no section and ends none. When several threads have a
// section of s open, the index cannot say which one ends: the test is
// rejected with an error saying so.
//
// An unlock that ends another thread's section is a full barrier of the
// unlocking thread first (canExec): the kernel's __srcu_read_unlock()
// starts with smp_mb(), and the stores the unlocking thread made before
// it must be visible before the grace period that waits for the section
// can end.

// srcuIndexOK reports whether the index in's unlock passes is 0, the index
// of every section; if not, the unlock ends nothing and eff says so.
func (m *machine) srcuIndexOK(s *mstate, t int, in *instr, eff *effect) (bool, error) {
	if in.a == nil {
		return true, nil
	}
	v, err := eval(in.a, s.th[t].regs)
	if err != nil {
		return false, &runtimeError{in.pos, err.Error()}
	}
	if v != 0 {
		if eff != nil {
			eff.note = fmt.Sprintf("no read-side section has index %s: nothing ends", m.p.format(v))
		}
		return false, nil
	}
	return true, nil
}

// srcuUnlockOther runs thread t's unlock of domain in.dom when t has no
// section of its own open there.
func (m *machine) srcuUnlockOther(s *mstate, t int, in *instr, eff *effect) error {
	if ok, err := m.srcuIndexOK(s, t, in, eff); err != nil || !ok {
		return err
	}
	dom := in.dom
	var owners []int
	for v := range s.th {
		if v != t && int8(s.th[v].rcu[dom]) > 0 {
			owners = append(owners, v)
		}
	}
	switch len(owners) {
	case 0:
		if int8(s.th[t].rcu[dom]) == -128 {
			return &runtimeError{in.pos, fmt.Sprintf("P%d: %s: too many unmatched unlocks", m.p.threads[t].id, in.text)}
		}
		s.th[t].rcu[dom]--
		if eff != nil {
			eff.note = "no section is open: the next one to start is over at once"
		}
	case 1:
		v := owners[0]
		s.th[v].rcu[dom]--
		if s.th[v].rcu[dom] == 0 {
			m.rcuEnd(s, v, dom)
		}
		if eff != nil {
			eff.note = fmt.Sprintf("ends the read-side critical section P%d began", m.p.threads[v].id)
		}
	default:
		var ids []string
		for _, v := range owners {
			ids = append(ids, fmt.Sprintf("P%d", m.p.threads[v].id))
		}
		return &runtimeError{in.pos, fmt.Sprintf("P%d: %s: %s each have a read-side section of %s open with index 0; which one this ends is not modelled", m.p.threads[t].id, in.text, strings.Join(ids, " and "), m.p.domains[dom])}
	}
	return nil
}

// srcuPayDebt settles an earlier unmatched unlock of domain dom, if there
// is one: the section being started is then over at once.
func (m *machine) srcuPayDebt(s *mstate, dom int, eff *effect) bool {
	for w := range s.th {
		if int8(s.th[w].rcu[dom]) < 0 {
			s.th[w].rcu[dom]++
			if eff != nil {
				eff.note = fmt.Sprintf("over at once: P%d's earlier unlock ended it", m.p.threads[w].id)
			}
			return true
		}
	}
	return false
}
