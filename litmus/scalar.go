package litmus

// CScalar is one C scalar type of the table that every package reads for
// a type's size and signedness: TypeSize (a plain test's locations),
// the code tests' types (ctype.go) and model/ctype's conversions.
//
// Size is the kernel's LP64 layout (x86-64, arm64, riscv64, ppc64): char
// 1, short 2, int 4, long 8; char is unsigned (-funsigned-char since
// Linux 6.2). The table was three tables once, and they knew different
// names; the flags keep what each reader knew, so that folding them
// changed no answer. Where they still differ (a code test's pid_t is 4
// bytes, but an engine computes it on 64 bits) it is said on the row.
type CScalar struct {
	Size   int
	Signed bool
	// Herd reports whether a plain test's location of this type is
	// Size bytes under both data models: herd7 knows the name
	// (lib/testType.ml) or it is one of the kernel's fixed sizes. long,
	// whose size the data models disagree on, is not (see TypeSize).
	Herd bool
	// Code reports whether a code test may declare with the name.
	Code bool
	// Arith reports whether the engines compute in the type's width: a
	// value assigned to it keeps its low Size bytes (model/ctype.Of) and
	// an 8-byte one is wide, cut by herd's 32-bit int default
	// (model/ctype.Wide). Without it a value is a 64-bit integer.
	Arith bool
	// Opaque reports whether it is one of the kernel's objects that only
	// primitives touch (atomic_t, spinlock_t): one location, as in a
	// plain test.
	Opaque bool
}

// LookupCScalar returns the row of the C scalar type named name, written
// with single spaces ("unsigned long", "u8", "atomic_t").
func LookupCScalar(name string) (CScalar, bool) {
	s, ok := cScalars[name]
	return s, ok
}

// Row constructors, one per set of readers.
func hca(size int, signed bool) CScalar { // herd, code tests and arithmetic
	return CScalar{Size: size, Signed: signed, Herd: true, Code: true, Arith: true}
}
func ca(size int, signed bool) CScalar { // code tests and arithmetic
	return CScalar{Size: size, Signed: signed, Code: true, Arith: true}
}
func codeOnly(size int, signed bool) CScalar { // code tests; a 64-bit value to the engines
	return CScalar{Size: size, Signed: signed, Code: true}
}
func opaque(size int, signed, arith bool) CScalar {
	return CScalar{Size: size, Signed: signed, Code: true, Arith: arith, Opaque: true}
}

var cScalars = map[string]CScalar{
	// C's own names.
	"char": hca(1, false), "signed char": hca(1, true), "unsigned char": hca(1, false),
	"bool": codeOnly(1, false), "_Bool": codeOnly(1, false),
	"short": hca(2, true), "unsigned short": hca(2, false),
	"short int": ca(2, true), "unsigned short int": ca(2, false),
	"signed short":     {Size: 2, Signed: true, Herd: true, Arith: true}, // not in a code test
	"signed short int": {Size: 2, Signed: true, Arith: true},             // arithmetic only
	"int":              hca(4, true), "signed": hca(4, true), "signed int": hca(4, true),
	"unsigned": hca(4, false), "unsigned int": hca(4, false),
	"long": ca(8, true), "long int": ca(8, true), "signed long": ca(8, true),
	"unsigned long": hca(8, false), "unsigned long int": ca(8, false),
	"long long": hca(8, true), "unsigned long long": hca(8, false),
	"long long int": ca(8, true), "unsigned long long int": ca(8, false),

	// <stdint.h>.
	"int8_t": hca(1, true), "int16_t": hca(2, true), "int32_t": hca(4, true), "int64_t": hca(8, true),
	"uint8_t": hca(1, false), "uint16_t": hca(2, false), "uint32_t": hca(4, false), "uint64_t": hca(8, false),
	"intptr_t": hca(8, true), "uintptr_t": hca(8, false),

	// The kernel's fixed-size types (include/uapi/asm-generic/int-ll64.h).
	"s8": hca(1, true), "s16": hca(2, true), "s32": hca(4, true), "s64": hca(8, true),
	"u8": hca(1, false), "u16": hca(2, false), "u32": hca(4, false), "u64": hca(8, false),
	"__s8": ca(1, true), "__s16": ca(2, true), "__s32": ca(4, true), "__s64": ca(8, true),
	"__u8": ca(1, false), "__u16": ca(2, false), "__u32": ca(4, false), "__u64": ca(8, false),

	// The kernel's other integer typedefs.
	"size_t": ca(8, false), "ssize_t": ca(8, true),
	"gfp_t": codeOnly(4, false), "__poll_t": codeOnly(4, false),
	"pid_t": codeOnly(4, true), "uid_t": codeOnly(4, false),
	"loff_t": codeOnly(8, true), "ktime_t": codeOnly(8, true),

	// The kernel's opaque objects.
	"atomic_t": opaque(4, true, false), "atomic_long_t": opaque(8, true, true),
	"atomic64_t": opaque(8, true, true), "refcount_t": opaque(4, true, false),
	"spinlock_t": opaque(4, false, false), "raw_spinlock_t": opaque(4, false, false),
	"arch_spinlock_t": opaque(4, false, false), "seqcount_t": opaque(4, false, false),
	"local_t": opaque(8, true, false),
}
