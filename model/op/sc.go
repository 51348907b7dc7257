package op

import "github.com/litmus-dev/litmus/model/report"

// scModel is sequential consistency (Lamport 1979): one shared memory,
// every access goes straight to it, and the machine runs any thread's next
// instruction. There are no buffers, so every fence is a no-op.
type scModel struct{}

func (scModel) Model() Machine { return SC }

func (scModel) read(s *mstate, t, loc int) (val, report.Source) { return s.mem[loc], report.FromMemory }

func (scModel) write(s *mstate, t, loc int, v val, rel bool) { s.mem[loc] = v }

func (scModel) storeFence(s *mstate, t int) {}

func (scModel) quiet(s *mstate, t int) bool { return true }

func (scModel) drains(s *mstate, out []action) []action { return out }

func (scModel) drain(s *mstate, a action) (int, val) { panic("model: SC has no buffers") }
