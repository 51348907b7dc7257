package litmus

import (
	"fmt"
	"strings"
)

// String names an ordering as the table in docs/language.md does:
// "once", "acquire", "release", "release+acquire" or "mb".
func (o Order) String() string {
	if o&OrdMb != 0 {
		return "mb"
	}
	var parts []string
	if o&OrdRelease != 0 {
		parts = append(parts, "release")
	}
	if o&OrdAcquire != 0 {
		parts = append(parts, "acquire")
	}
	if len(parts) == 0 {
		return "once"
	}
	return strings.Join(parts, "+")
}

var successNames = [...]string{"", "old == expected", "old != unless-value", "new == 0", "the bit was clear", "the bit was set"}

var rmwOpNames = [...]string{"", "add", "sub", "and", "or", "xor", "andnot", "xchg", "cmpxchg", "add_unless"}

// String says when a conditional primitive succeeds.
func (s Success) String() string {
	if int(s) < len(successNames) {
		return successNames[s]
	}
	return fmt.Sprintf("Success(%d)", int(s))
}

// Signature writes a primitive's call shape, naming the location
// argument p (a pointer) or *x (an lvalue), values v, w, u and bit
// numbers nr: "smp_load_acquire(p)", "READ_ONCE(*x)", "atomic_add(v, p)".
func (p *Primitive) Signature() string {
	var args []string
	vals := []string{"v", "w", "u"}
	for i, a := range p.Args {
		switch a {
		case ArgPtr:
			args = append(args, "p")
		case ArgLval:
			args = append(args, "*x")
		case ArgBit:
			args = append(args, "nr")
		default:
			name := "v"
			if n := countVals(p.Args[:i]); n < len(vals) {
				name = vals[n]
			}
			args = append(args, name)
		}
	}
	return p.Name + "(" + strings.Join(args, ", ") + ")"
}

// limitName names the limit operand of an add_unless row: the second
// written value (w), or its implicit value.
func (p *Primitive) limitName() string {
	n := countVals(p.Args)
	if n >= 2 {
		return "w"
	}
	if k := 1 - n; k < len(p.Imm) {
		return fmt.Sprint(p.Imm[k])
	}
	return "?"
}

func countVals(args []ArgKind) int {
	n := 0
	for _, a := range args {
		if a == ArgVal {
			n++
		}
	}
	return n
}

// primitiveTable renders the primitive table as the Markdown table of
// docs/language.md, one row per primitive sorted by name.
func primitiveTable() string {
	var b strings.Builder
	b.WriteString("| Primitive | Kind | Ordering | On failure | Source |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, p := range Primitives() {
		kind := p.Kind.String()
		if p.Kind == KRMW {
			kind += " " + rmwOpNames[p.Op]
			if p.NonAtomic {
				kind = "plain load + store " + rmwOpNames[p.Op]
			}
			if len(p.Imm) > 0 {
				var imm []string
				for _, k := range p.Imm {
					imm = append(imm, fmt.Sprint(k))
				}
				kind += " with implicit " + strings.Join(imm, ", ")
			}
		}
		order := p.Order.String()
		switch {
		case p.Kind == KFence:
			order = "fence " + p.Fence
		case p.Kind == KNop:
			order = "none"
		case p.Fence != "":
			order += ", then fence " + p.Fence
		}
		fail := ""
		if p.Success != SuccAlways {
			switch {
			case p.Kind == KTryLock:
				order += " if it takes the lock"
			case p.Success == SuccCmpEqual:
				order += " if old == v"
			case p.Success == SuccNotEqual:
				order += " if old != " + p.limitName()
			default:
				order += " if " + p.Success.String()
			}
			fail = p.FailOrder.String()
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Signature(), kind, order, fail, p.Source)
	}
	return b.String()
}
