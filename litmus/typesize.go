package litmus

import "strings"

// DataModel is a convention for the sizes of C's integer types, the one
// thing about a type that the init section's declarations decide.
type DataModel int

const (
	// LP64 is the kernel's convention on 64-bit machines (x86-64,
	// arm64, riscv64, ppc64): int is 4 bytes, long and pointers 8. The
	// operational engines and litmus run use it.
	LP64 DataModel = iota
	// Herd is herd7's (lib/testType.ml, size_of): as LP64 but long is 4
	// bytes, so that a "long x=4294967297;" holds 1. The architecture
	// semantics use it, to answer as herd does (model/arch's herd test
	// types-u64-long checks it against herd's own output).
	Herd
)

// TypeSize returns the size in bytes of a location of C type typ, as
// written in a test's init section, under data model dm: the stride of
// an array's elements and the width of its accesses.
//
// The size is its row's in the C scalar table (LookupCScalar) where
// herd knows the type. One herd does not know (none written, or a
// kernel typedef such as atomic_t) is 4 bytes under Herd, herd's int;
// under LP64 it is read from its name: 8 bytes for one that says 64 or
// long, 1 for int8 or char, 2 for int16 or short, 4 for another int, and
// 8 otherwise (no type, a lock, atomic_t: the operational engines give
// such a location a 64-bit word).
func TypeSize(typ string, dm DataModel) int {
	typ = strings.Join(strings.Fields(typ), " ")
	switch {
	case strings.HasSuffix(typ, "*"):
		return 8
	case typ == "long":
		if dm == Herd {
			return 4
		}
		return 8
	}
	if s, ok := cScalars[typ]; ok && s.Herd {
		return s.Size
	}
	if dm == Herd {
		return 4
	}
	switch {
	case strings.Contains(typ, "64"), strings.Contains(typ, "long"):
		return 8
	case strings.Contains(typ, "int8"), strings.Contains(typ, "char"):
		return 1
	case strings.Contains(typ, "int16"), strings.Contains(typ, "short"):
		return 2
	case strings.Contains(typ, "int"):
		return 4
	}
	return 8
}
