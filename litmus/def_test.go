package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseDef checks the macro forms ParseDef reads and the errors it
// gives, each at its file:line:col.
func TestParseDef(t *testing.T) {
	src := `// a tree's additions
my_acq(X) __load{ACQUIRE}(*X)
my_store_mb(X,V) { __store{RELEASE}(X,V); __fence{MB}; }
my_inc_and_test(X) __atomic_op_return{MB}(X,+,1) == 0
my_read(X) my_acq(X)
my_fence() { __fence{after-atomic}; }
`
	tab, err := ParseDef("tree.def", []byte(src))
	require.NoError(t, err)
	p := tab["my_acq"]
	require.Equal(t, Primitive{Name: "my_acq", Args: []ArgKind{ArgPtr}, Loc: 0, Kind: KLoad, Ret: RetValue, Order: OrdAcquire, Source: "tree.def:2"}, *p)
	p = tab["my_store_mb"]
	require.Equal(t, KStore, p.Kind)
	require.Equal(t, []ArgKind{ArgLval, ArgVal}, p.Args)
	require.Equal(t, OrdRelease, p.Order)
	require.Equal(t, "mb", p.Fence)
	p = tab["my_inc_and_test"]
	require.Equal(t, RetNewIsZero, p.Ret)
	require.Equal(t, []int64{1}, p.Imm)
	require.Equal(t, RMWAdd, p.Op)
	require.Equal(t, []ArgKind{ArgPtr}, tab["my_read"].Args)
	require.Equal(t, KLoad, tab["my_read"].Kind)
	require.Equal(t, "after-atomic", tab["my_fence"].Fence)
	// The file's table replaces the built-in one: a row it does not
	// define is not there (herd7 -macros knows only the file's).
	require.NotNil(t, table["set_bit"])
	require.NotContains(t, tab, "set_bit")

	for _, tc := range []struct{ src, err string }{
		{"x(X) __load{FANCY}(X)\n", "t.def:1:6: __load{FANCY}: litmus knows the annotations ONCE, ACQUIRE, RELEASE, MB and NORETURN here"},
		{"\nx(X) __nosuch(X)\n", "t.def:2:6: unknown macro or builtin __nosuch"},
		{"x(X) __load{ONCE}(X)\nx(X) __load{ONCE}(X)\n", "t.def:2:1: macro x defined twice"},
		{"x(X,V) __load{ONCE}(X)\n", "t.def:1:1: x: parameter V is not used"},
		{"x(X) { __fence{MB}; __fence{MB}; }\n", "t.def:1:1: x: litmus represents a macro of one access or fence (or a store and a fence), not 2"},
		{"x(X) __fence{nosuch}\n", "t.def:1:6: unknown fence annotation {nosuch}"},
		{"x(X __load{ONCE}(X)\n", "t.def:1:5: expected , or )"},
		{"x(X) a(X) b\n", "t.def:1:11: unexpected \"b\""},
		{"x(X) x(X)\n", "t.def:1:1: macro x expands through too many macros"},
	} {
		_, err := ParseDef("t.def", []byte(tc.src))
		require.Error(t, err, tc.src)
		require.Contains(t, err.Error(), tc.err, tc.src)
	}
}

// FuzzParseDef checks that ParseDef never panics and that an error is
// always an ErrorList of positioned errors.
func FuzzParseDef(f *testing.F) {
	for _, s := range []string{
		"READ_ONCE(X) __load{ONCE}(X)\n",
		"smp_store_mb(X,V) { __store{ONCE}(X,V); __fence{MB}; }\n",
		"atomic_inc_and_test(X)  __atomic_op_return{MB}(X,+,1) == 0\n",
		"atomic_read(X) READ_ONCE(*X)\nx() { __fence{rmb}; }\n",
		"a(X,Y) __cmpxchg{MB}(X,Y,-3)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tab, err := ParseDef("f.def", []byte(src))
		if err != nil {
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if !e.Pos.IsValid() {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		for name, p := range tab {
			if p.Kind != KFence && p.Kind != KNop && (p.Loc < 0 || p.Loc >= len(p.Args)) {
				t.Fatalf("%s: location argument %d of %d", name, p.Loc, len(p.Args))
			}
		}
	})
}
