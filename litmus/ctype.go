package litmus

import (
	"fmt"
	"sort"
	"strconv"
)

// ckind classifies a C type of a code test.
type ckind int

const (
	kVoid   ckind = iota
	kInt          // every integer type, bool, enum, and the kernel's opaque scalars (atomic_t, spinlock_t)
	kPtr          // a pointer; elem is the pointee
	kArray        // elem[n]
	kStruct       // a struct or union; fields
	kFunc         // a function type: ret(params)
)

// ctype is a C type of a code test. The layout is the kernel's LP64 one
// (x86-64, arm64, riscv64, ppc64): char 1, short 2, int 4, long and
// pointers 8, the opaque kernel scalars their kernel size.
type ctype struct {
	kind     ckind
	name     string // as written: "int", "unsigned long", "struct sock", "atomic_t"
	size     int
	align    int
	elem     *ctype
	n        int
	fields   []*cfield
	union    bool
	complete bool
	ret      *ctype
	params   []*ctype
	variadic bool
	// opaque is set for the kernel's opaque scalars (atomic_t,
	// refcount_t, spinlock_t, ...): one location that only primitives
	// touch; the flattened test declares it with this name.
	opaque bool
}

// cfield is one member of a struct or union.
type cfield struct {
	name string
	typ  *ctype
	off  int
	pos  Position
}

var (
	cVoid = &ctype{kind: kVoid, name: "void", complete: true}
	cInt  = &ctype{kind: kInt, name: "int", size: 4, align: 4, complete: true}
)

// scalarType returns the type of a code test that C scalar name
// declares (an integer or one of the kernel's opaque objects), or nil.
func scalarType(name string) *ctype {
	s, ok := cScalars[name]
	if !ok || !s.Code {
		return nil
	}
	return &ctype{kind: kInt, name: name, size: s.Size, align: s.Size, complete: true, opaque: s.Opaque}
}

// sizeOf and friends give a type's layout; an incomplete struct has
// none.
func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

func ptrTo(t *ctype) *ctype {
	return &ctype{kind: kPtr, name: t.name + " *", size: 8, align: 8, elem: t, complete: true}
}

func arrayOf(t *ctype, n int) *ctype {
	return &ctype{kind: kArray, name: fmt.Sprintf("%s[%d]", t.name, n), size: t.size * n, align: t.align, elem: t, n: n, complete: t.complete}
}

// layout computes the offsets of a struct's or union's fields.
func (t *ctype) layout() {
	off, size, align := 0, 0, 1
	for _, f := range t.fields {
		a := max(f.typ.align, 1)
		align = max(align, a)
		if t.union {
			f.off = 0
			size = max(size, f.typ.size)
			continue
		}
		off = alignUp(off, a)
		f.off = off
		off += f.typ.size
		size = off
	}
	t.size, t.align, t.complete = alignUp(size, align), align, true
}

// field finds a member by name, looking into anonymous members; it
// returns the field and its offset from the start of t.
func (t *ctype) field(name string) (*cfield, int, bool) {
	for _, f := range t.fields {
		if f.name == name {
			return f, f.off, true
		}
		if f.name == "" && f.typ.kind == kStruct {
			if g, off, ok := f.typ.field(name); ok {
				return g, f.off + off, true
			}
		}
	}
	return nil, 0, false
}

// fieldNames lists the member names of t, anonymous members' included,
// for "did you mean".
func (t *ctype) fieldNames() []string {
	var out []string
	for _, f := range t.fields {
		if f.name == "" && f.typ.kind == kStruct {
			out = append(out, f.typ.fieldNames()...)
		} else {
			out = append(out, f.name)
		}
	}
	return out
}

// isScalar reports whether t is one location: an integer, an opaque
// kernel scalar or a data pointer. A function pointer is not: it is a
// constant of the code (see lower.go).
func (t *ctype) isScalar() bool {
	return t.kind == kInt || t.kind == kPtr && t.elem.kind != kFunc
}

// isFuncPtr reports whether t is a pointer to a function.
func (t *ctype) isFuncPtr() bool { return t.kind == kPtr && t.elem.kind == kFunc }

// closest returns the name among names nearest to name, or "".
func closest(name string, names []string) string {
	names = append([]string(nil), names...)
	sort.Strings(names) // ties go to the first name in order, whatever map gave the list
	best, bestD := "", 2+len(name)/4
	for _, n := range names {
		if d := editDistance(name, n); d <= bestD && (best == "" || d < bestD) {
			best, bestD = n, d
		}
	}
	return best
}

// didYouMean is " (did you mean X?)" or "".
func didYouMean(name string, names []string) string {
	if s := closest(name, names); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}

// flatType is the type the flattened test declares a scalar with, in
// the words herd7's C reads: its own opaque types (atomic_t,
// spinlock_t), int * for a pointer, int otherwise (herd has no
// unsigned long or refcount_t in an init block or a parameter list; the
// engines compute on 64-bit integers whatever the type).
func (t *ctype) flatType() string {
	switch {
	case t.opaque && (t.name == "atomic_t" || t.name == "spinlock_t"):
		return t.name
	case t.kind == kPtr:
		return "int *"
	case t.kind == kInt && !t.opaque && t.name != "bool" && t.name != "_Bool":
		// A width other than int's is written as the <stdint.h> name
		// herd7 reads, so that every engine keeps the C type's width
		// (u8 p->ttl = 0 - 1 is 255).
		if s, ok := LookupCScalar(t.name); ok && s.Arith && (s.Size != 4 || !s.Signed) {
			name := "int" + strconv.Itoa(8*s.Size) + "_t"
			if !s.Signed {
				name = "u" + name
			}
			return name
		}
	}
	return "int"
}
