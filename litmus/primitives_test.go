package litmus

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// defPath is the kernel's herd macro table, in the shared corpus.
const defPath = corpusDir + "/lkmm/tools/memory-model/linux-kernel.def"

// defRow is what a linux-kernel.def line says about one primitive.
type defRow struct {
	name   string
	params []string
	kind   Kind
	order  Order
	fail   Order
	op     RMWOp
	ret    Ret
	fence  string
	loc    string // parameter naming the location, or ""
	ptr    bool   // the location parameter is a pointer (used as *X)
}

var (
	defLineRE = regexp.MustCompile(`^(\w+)\(([^)]*)\)\s+(.*)$`)
	defCallRE = regexp.MustCompile(`^(__\w+)(?:\{([\w-]+)\})?(?:\(([^)]*)\))?(.*)$`)
)

func defOrder(s string) Order {
	switch strings.ToUpper(s) {
	case "MB":
		return OrdMb
	case "ACQUIRE":
		return OrdAcquire
	case "RELEASE":
		return OrdRelease
	}
	return OrdOnce
}

var defOps = map[string]RMWOp{"+": RMWAdd, "-": RMWSub, "&": RMWAnd, "|": RMWOr, "^": RMWXor, "&~": RMWAndNot}

// readDef parses linux-kernel.def into rows, expanding macros that call
// other macros (atomic_read(X) READ_ONCE(*X)).
func readDef(t *testing.T) []*defRow {
	f, err := os.Open(defPath)
	if err != nil {
		t.Skipf("linux-kernel.def not present: %v", err)
	}
	defer f.Close()
	byName := map[string]*defRow{}
	var rows []*defRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := defLineRE.FindStringSubmatch(line)
		require.NotNil(t, m, "unparsed .def line %q", line)
		r := &defRow{name: m[1]}
		if m[2] != "" {
			r.params = strings.Split(m[2], ",")
		}
		body := strings.TrimSpace(m[3])
		body = strings.TrimSuffix(strings.TrimPrefix(body, "{"), "}")
		for _, part := range strings.Split(body, ";") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			interpretDef(t, r, part, byName)
		}
		byName[r.name] = r
		rows = append(rows, r)
	}
	require.NoError(t, sc.Err())
	return rows
}

// interpretDef reads one call of a .def body into r.
func interpretDef(t *testing.T, r *defRow, part string, byName map[string]*defRow) {
	setLoc := func(arg string, ptrIfPlain bool) {
		if strings.HasPrefix(arg, "*") {
			r.loc, r.ptr = arg[1:], true
		} else {
			r.loc, r.ptr = arg, ptrIfPlain
		}
	}
	if m := defCallRE.FindStringSubmatch(part); m != nil {
		fn, tag, args, rest := m[1], m[2], strings.Split(m[3], ","), strings.TrimSpace(m[4])
		switch fn {
		case "__load":
			r.kind, r.ret = KLoad, RetValue
			if tag == "srcu-lock" {
				r.kind = KSRCULock
			} else {
				r.order = defOrder(tag)
			}
			setLoc(args[0], false)
		case "__store":
			r.kind = KStore
			if tag == "srcu-unlock" {
				r.kind = KSRCUUnlock
			} else {
				r.order = defOrder(tag)
			}
			setLoc(args[0], false)
		case "__fence":
			if r.kind == 0 {
				r.kind = KFence
			}
			r.fence = strings.ToLower(tag)
		case "__xchg", "__cmpxchg":
			r.kind, r.op, r.ret, r.order = KRMW, RMWXchg, RetOld, defOrder(tag)
			if fn == "__cmpxchg" {
				r.op, r.fail = RMWCmpxchg, OrdOnce
			}
			setLoc(args[0], true)
		case "__lock", "__unlock", "__trylock", "__islocked":
			r.kind = map[string]Kind{"__lock": KLock, "__unlock": KUnlock, "__trylock": KTryLock, "__islocked": KIsLocked}[fn]
			r.order = map[string]Order{"__lock": OrdAcquire, "__unlock": OrdRelease, "__trylock": OrdAcquire}[fn]
			if fn == "__trylock" {
				r.ret = RetSuccess
			}
			if fn == "__islocked" {
				r.ret = RetValue
			}
			setLoc(args[0], true)
		case "__srcu":
			r.kind = KSyncSRCU
			setLoc(args[0], true)
		case "__atomic_op", "__atomic_op_return", "__atomic_fetch_op":
			r.kind, r.op = KRMW, defOps[args[1]]
			require.NotZero(t, r.op, "%s: operator %q", r.name, args[1])
			setLoc(args[0], true)
			switch fn {
			case "__atomic_op":
				r.ret, r.order = RetNone, OrdOnce
			case "__atomic_op_return":
				r.ret, r.order = RetNew, defOrder(tag)
			case "__atomic_fetch_op":
				r.ret, r.order = RetOld, defOrder(tag)
			}
			switch rest {
			case "== 0":
				r.ret = RetNewIsZero
			case "< 0":
				r.ret = RetNewIsNeg
			case "":
			default:
				t.Fatalf("%s: unexpected %q", r.name, rest)
			}
		case "__atomic_add_unless":
			r.kind, r.op, r.ret, r.order, r.fail = KRMW, RMWAddUnless, RetSuccess, defOrder(tag), OrdOnce
			setLoc(args[0], true)
		default:
			t.Fatalf("%s: unknown herd builtin %s", r.name, fn)
		}
		return
	}
	// A call of another macro: atomic_read(X) READ_ONCE(*X).
	m := regexp.MustCompile(`^(\w+)\(([^)]*)\)$`).FindStringSubmatch(part)
	require.NotNil(t, m, "%s: unparsed body %q", r.name, part)
	sub := byName[m[1]]
	require.NotNil(t, sub, "%s: calls undefined %s", r.name, m[1])
	args := strings.Split(m[2], ",")
	saved := *r
	*r = *sub
	r.name, r.params = saved.name, saved.params
	for i, prm := range sub.params {
		if prm == sub.loc {
			setLoc(args[i], sub.ptr)
		}
	}
}

// TestPrimitivesMatchDef checks every primitive of the kernel's
// linux-kernel.def against the table: argument count, kind, ordering,
// return, operation, fence and which argument is the location.
func TestPrimitivesMatchDef(t *testing.T) {
	rows := readDef(t)
	for _, d := range rows {
		p, ok := Lookup(d.name)
		if !ok {
			t.Errorf("%s: in linux-kernel.def, missing from the table", d.name)
			continue
		}
		require.Len(t, p.Args, len(d.params), "%s: argument count", d.name)
		require.Equal(t, d.kind, p.Kind, "%s: kind", d.name)
		require.Equal(t, d.order, p.Order, "%s: ordering", d.name)
		require.Equal(t, d.fail, p.FailOrder, "%s: failure ordering", d.name)
		require.Equal(t, d.fence, p.Fence, "%s: fence", d.name)
		if d.kind == KRMW {
			require.Equal(t, d.op, p.Op, "%s: operation", d.name)
		}
		require.Equal(t, d.ret, p.Ret, "%s: return", d.name)
		if d.loc == "" {
			require.Equal(t, -1, p.Loc, "%s: location argument", d.name)
			continue
		}
		idx := -1
		for i, prm := range d.params {
			if prm == d.loc {
				idx = i
			}
		}
		require.Equal(t, idx, p.Loc, "%s: location argument", d.name)
		want := ArgLval
		if d.ptr {
			want = ArgPtr
		}
		require.Equal(t, want, p.Args[p.Loc], "%s: location is a pointer (X) or an lvalue (*X)", d.name)
		require.Equal(t, srcDef, p.Source, "%s: source", d.name)
	}
	t.Logf("checked %d linux-kernel.def rows", len(rows))
}

// TestPrimitiveTableShape checks invariants of every row.
func TestPrimitiveTableShape(t *testing.T) {
	for _, p := range Primitives() {
		require.NotEmpty(t, p.Source, p.Name)
		switch p.Kind {
		case KFence, KNop:
			require.Equal(t, -1, p.Loc, p.Name)
		default:
			require.True(t, p.Loc >= 0 && p.Loc < len(p.Args), "%s: Loc %d", p.Name, p.Loc)
			a := p.Args[p.Loc]
			require.True(t, a == ArgPtr || a == ArgLval, "%s: location argument kind %v", p.Name, a)
		}
		if p.Success == SuccAlways {
			require.Equal(t, OrdOnce, p.FailOrder, "%s: FailOrder without a success condition", p.Name)
		}
	}
}
