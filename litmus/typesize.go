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

// cTypeSizes are the sizes in bytes of the C types whose size does not
// depend on the data model.
var cTypeSizes = map[string]int{
	"char": 1, "signed char": 1, "unsigned char": 1, "int8_t": 1, "uint8_t": 1,
	"short": 2, "signed short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2,
	"int": 4, "signed": 4, "signed int": 4, "unsigned": 4, "unsigned int": 4, "int32_t": 4, "uint32_t": 4,
	"unsigned long": 8, "long long": 8, "unsigned long long": 8, "int64_t": 8, "uint64_t": 8,
	"intptr_t": 8, "uintptr_t": 8,
	// The kernel's fixed-size types (include/uapi/asm-generic/int-ll64.h).
	"u8": 1, "s8": 1, "u16": 2, "s16": 2, "u32": 4, "s32": 4, "u64": 8, "s64": 8,
}

// TypeSize returns the size in bytes of a location of C type typ, as
// written in a test's init section, under data model dm: the stride of
// an array's elements and the width of its accesses.
//
// A type this table does not name (none written, or a kernel typedef
// such as atomic_t) is 4 bytes under Herd, herd's default int;
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
	if n, ok := cTypeSizes[typ]; ok {
		return n
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
