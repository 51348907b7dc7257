// Package axiom is the axiomatic core shared by every axiomatic model of
// the project (the native LKMM in model/lkmm and cat models run by
// model/cat/interp): the events a program semantics produces, candidate
// executions (one path per thread, then every rf and co), their base
// relations as bitsets, the value domains reads range over, final states
// and the condition language over them. A model is not in this package:
// it receives executions and says which candidates it accepts.
//
// The layering follows herd7: a semantics (C, AArch64, ...) turns each
// thread's code into paths of events with their dependencies; this
// package combines the paths and enumerates rf and co; a model checks
// each candidate.
package axiom

import "strconv"

// Val is a value of a litmus program: an integer, or the address of a
// shared location (herd's symbolic addresses: "0:X1=x" or "int *y = &x"
// make a register or a location hold the address of x), or, in a final
// state only, herd's symbolic value S<n> of a cycle of copies (see
// Execution.ThinAir).
type Val struct {
	Sym int32 // 0 for an integer, 1 + the index of the location addressed, or -n for S<n>
	N   int64 // the integer, or the byte offset from the location's address
}

// Int returns the integer value n.
func Int(n int64) Val { return Val{N: n} }

// Addr returns the address of location loc.
func Addr(loc int) Val { return Val{Sym: int32(loc + 1)} }

// IsAddr reports whether v is the address of a location.
func (v Val) IsAddr() bool { return v.Sym > 0 }

// IsSymbolic reports whether v is a symbolic value S<n>.
func (v Val) IsSymbolic() bool { return v.Sym < 0 }

// Loc returns the location v addresses.
func (v Val) Loc() int { return int(v.Sym) - 1 }

// Truth reports whether v is true in a condition: non-zero, or an address.
func (v Val) Truth() bool { return v.Sym != 0 || v.N != 0 }

// Format prints v as herd does: an integer in decimal, an address as the
// name of its location (with "+offset" when it has one).
func (v Val) Format(names []string) string {
	if v.IsSymbolic() {
		return "S" + strconv.Itoa(int(-v.Sym))
	}
	if v.IsAddr() {
		if v.N != 0 {
			return names[v.Loc()] + "+" + strconv.FormatInt(v.N, 10)
		}
		return names[v.Loc()]
	}
	return strconv.FormatInt(v.N, 10)
}

// Less orders values: symbolic values first (as herd orders its
// variables), then integers, then addresses; integers numerically,
// addresses by location then offset.
func (v Val) Less(w Val) bool {
	if v.IsSymbolic() && w.IsSymbolic() {
		return v.Sym > w.Sym
	}
	if v.Sym != w.Sym {
		return v.Sym < w.Sym
	}
	return v.N < w.N
}
