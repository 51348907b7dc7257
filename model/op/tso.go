package op

import "github.com/litmus-dev/litmus/model/report"

// tsoModel is x86-TSO (Owens, Sarkar, Sewell, "x86-TSO: a rigorous and
// usable programmer's model for x86 multiprocessors", CACM 53(7), 2010):
// each thread has a FIFO store buffer; a store is appended to it; a load
// reads the newest entry for its address in its own buffer, else memory;
// the oldest entry of any buffer may reach memory at any step. MFENCE and
// every LOCK'd instruction wait until the thread's own buffer is empty
// (exec.go asks quiet) and LOCK'd instructions then act on memory
// atomically. Store fences have no effect: TSO keeps stores in order.
type tsoModel struct{}

func (tsoModel) Model() Machine { return TSO }

func (tsoModel) read(s *mstate, t, loc int) (val, report.Source) {
	buf := s.th[t].buf
	for i := len(buf) - 1; i >= 0; i-- {
		if buf[i].loc == loc {
			return buf[i].v, report.FromBuffer
		}
	}
	return s.mem[loc], report.FromMemory
}

func (tsoModel) write(s *mstate, t, loc int, v val, rel bool) {
	s.th[t].buf = append(s.th[t].buf, entry{loc: loc, v: v})
}

func (tsoModel) storeFence(s *mstate, t int) {}

func (tsoModel) quiet(s *mstate, t int) bool { return len(s.th[t].buf) == 0 }

func (tsoModel) drains(s *mstate, out []action) []action {
	for t := range s.th {
		if b := s.th[t].buf; len(b) > 0 {
			out = append(out, drainAct(t, b[0].loc))
		}
	}
	return out
}

func (tsoModel) drain(s *mstate, a action) (int, val) {
	th := &s.th[a.thread()]
	e := th.buf[0]
	th.buf = append(th.buf[:0], th.buf[1:]...)
	s.mem[e.loc] = e.v
	return e.loc, e.v
}
