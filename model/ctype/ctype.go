// Package ctype gives the integer types of kernel C their widths (read
// from litmus's one table of C scalar types, litmus.LookupCScalar), as the
// kernel compiles them on its 64-bit architectures (LP64: int is 32 bits,
// long and pointers 64; char is unsigned, -funsigned-char since Linux
// 6.2), and converts a value to a type the way those compilers do:
// two's complement, keeping the type's low bits (the kernel builds with
// -fno-strict-overflow, so signed overflow wraps; see the top-level
// Makefile). Every engine converts a value assigned to a C register with
// it, so that one C program computes one set of values under every model
// (docs/semantics.md, "Integer arithmetic: the rules and their sources").
package ctype

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// Kind is how a type converts a 64-bit value: keep it (64-bit types,
// pointers and types this package does not know), or keep its low Bits,
// sign-extended or zero-extended.
type Kind struct {
	Bits   uint8 // 0: all 64
	Signed bool
}

// Of returns the kind of C type t ("int", "unsigned long", "u8",
// "int *"). An empty type is int, as C's implicit int.
func Of(t string) Kind {
	t = strings.Join(strings.Fields(t), " ")
	for _, q := range []string{"const ", "volatile ", "static "} {
		t = strings.ReplaceAll(t, q, "")
	}
	if strings.HasSuffix(t, "*") {
		return Kind{}
	}
	if t == "" {
		t = "int"
	}
	if s, ok := litmus.LookupCScalar(t); ok && s.Arith && s.Size < 8 {
		return Kind{uint8(8 * s.Size), s.Signed}
	}
	return Kind{}
}

// Convert returns v converted to the kind: its low Bits, sign- or
// zero-extended.
func (k Kind) Convert(v int64) int64 {
	if k.Bits == 0 || k.Bits >= 64 {
		return v
	}
	s := 64 - uint(k.Bits)
	if k.Signed {
		return v << s >> s
	}
	return int64(uint64(v) << s >> s)
}

// Narrow reports whether the kind changes some 64-bit values.
func (k Kind) Narrow() bool { return k.Bits != 0 && k.Bits < 64 }

// Wide reports whether C type t is a 64-bit integer type (long, u64,
// size_t, atomic_long_t, ...): one whose values the architectures' 32-bit
// default (herd's registers and locations are int) would cut.
func Wide(t string) bool {
	s, ok := litmus.LookupCScalar(strings.Join(strings.Fields(t), " "))
	return ok && s.Arith && s.Size == 8
}

// Locations returns the kinds of t's shared locations whose C type is
// narrower than 64 bits, by name: the type the init section declares
// ("short w;", "unsigned int u = 3;") or, for a location the init section
// leaves untyped, the type its processes' parameters point to ("int *x"),
// when they all agree. A store to such a location keeps the type's low
// bits, as the kernel's compilers store it (a 32-bit str, a halfword);
// an array's elements are named "a[i]" by the engines and keep the
// array's kind under its base name.
func Locations(t *litmus.Test) map[string]Kind {
	out := map[string]Kind{}
	declared := map[string]bool{}
	for _, it := range t.Init {
		if it.Proc >= 0 || it.Type == "" {
			continue
		}
		declared[it.Name] = true
		if k := Of(it.Type); k.Narrow() {
			out[it.Name] = k
		}
	}
	params := map[string]Kind{}
	mixed := map[string]bool{}
	for _, p := range t.Procs {
		for _, prm := range p.Params {
			name, typ := prm.Name.Name, strings.TrimSpace(prm.Type)
			if declared[name] || !strings.HasSuffix(typ, "*") {
				continue
			}
			k := Of(strings.TrimSuffix(typ, "*"))
			if old, ok := params[name]; ok && old != k {
				mixed[name] = true
			}
			params[name] = k
		}
	}
	for name, k := range params {
		if k.Narrow() && !mixed[name] {
			out[name] = k
		}
	}
	return out
}
