package kmap

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// TestEveryPrimitiveMapped checks that each primitive of the litmus table
// has a row or a stated gap on every architecture, and that there are no
// rows for primitives the table does not know.
func TestEveryPrimitiveMapped(t *testing.T) {
	known := map[string]bool{PlainLoad: true, PlainStore: true, NullAssign: true}
	for _, p := range litmus.Primitives() {
		known[p.Name] = true
	}
	for _, a := range Arches() {
		for _, p := range litmus.Primitives() {
			_, why, ok := Lookup(a, p.Name)
			require.True(t, ok || strings.Contains(why, "grace-period"), "%s: %s has no row and no gap: %s", a, p.Name, why)
		}
		for _, r := range Rows(a) {
			require.True(t, known[r.Prim], "%s: row for unknown primitive %s", a, r.Prim)
			require.NotEmpty(t, r.Src, "%s: %s has no source", a, r.Prim)
		}
	}
}

var (
	placeholderRE = regexp.MustCompile(`\{[a-z]+\}`)
	x86RegRE      = regexp.MustCompile(`%([a-z0-9]+)`)
	armRegRE      = regexp.MustCompile(`\b([xw](?:[0-9]+|zr))\b`)
	rvRegRE       = regexp.MustCompile(`\b(x[0-9]+)\b`)
	ppcRegRE      = regexp.MustCompile(`\b(r[0-9]+)\b`)
	labelRefRE    = regexp.MustCompile(`^([0-9]+)([bf])$`)
)

// TestRowsWellFormed checks the rules of the package comment on every row.
func TestRowsWellFormed(t *testing.T) {
	scratch := map[Arch][]string{
		X86_64:    {"rax", "eax", "al", "rcx", "ecx", "rsp"},
		ARM64:     {"x14", "x15", "x16", "x17", "w14", "w15", "w16", "w17", "xzr"},
		ARM64LLSC: {"x14", "x15", "x16", "x17", "w14", "w15", "w16", "w17", "xzr"},
		RISCV64:   {"x0", "x28", "x29", "x30", "x31"},
		// r0 only as the X-form base, where it reads as 0.
		PPC64: {"r0", "r28", "r29", "r30", "r31"},
	}
	regRE := map[Arch]*regexp.Regexp{X86_64: x86RegRE, ARM64: armRegRE, ARM64LLSC: armRegRE, RISCV64: rvRegRE, PPC64: ppcRegRE}
	for _, a := range Arches() {
		for _, r := range Rows(a) {
			insns, err := Parse(r.Code)
			require.NoError(t, err, "%s %s", a, r.Prim)
			labels := map[string]bool{}
			for _, in := range insns {
				if in.Label != "" {
					labels[in.Label] = true
				}
			}
			prim, _ := litmus.Lookup(r.Prim)
			returns := prim != nil && prim.Ret != litmus.RetNone
			usesRet := false
			for i, in := range insns {
				for j, arg := range in.Args {
					for _, ph := range placeholderRE.FindAllString(arg, -1) {
						require.Contains(t, placeholders, ph, "%s %s: unknown placeholder in %q", a, r.Prim, in)
					}
					if strings.Contains(arg, "{ret}") {
						usesRet = true
						require.Equal(t, len(insns)-1, i, "%s %s: {ret} outside the last instruction", a, r.Prim)
						dst := len(in.Args) - 1 // AT&T: the destination is last
						if a != X86_64 {
							dst = 0
						}
						require.Equal(t, dst, j, "%s %s: {ret} is not the destination of %q", a, r.Prim, in)
					}
					for _, m := range regRE[a].FindAllStringSubmatch(arg, -1) {
						require.True(t, slices.Contains(scratch[a], m[1]), "%s %s: %q uses %s, not a scratch register", a, r.Prim, in, m[1])
					}
					if m := labelRefRE.FindStringSubmatch(arg); m != nil {
						require.True(t, labels[m[1]], "%s %s: branch to missing label %s", a, r.Prim, arg)
					}
				}
			}
			if prim != nil && r.Prim != NullAssign {
				require.Equal(t, returns, usesRet, "%s %s: returns a value %v, row writes {ret} %v", a, r.Prim, returns, usesRet)
			}
		}
	}
}

func TestParse(t *testing.T) {
	got, err := Parse("1: ldxr x16, [{addr}]; lock cmpxchgq %rcx, {addr}; 2:")
	require.NoError(t, err)
	require.Equal(t, []Insn{
		{Label: "1", Op: "ldxr", Args: []string{"x16", "[{addr}]"}},
		{Prefix: "lock", Op: "cmpxchgq", Args: []string{"%rcx", "{addr}"}},
		{Label: "2"},
	}, got)
	_, err = Parse("add x1, , x2")
	require.Error(t, err)
	_, err = Parse("ldr x1, [x2")
	require.Error(t, err)
	none, err := Parse("")
	require.NoError(t, err)
	require.Empty(t, none)
}

func TestLookupGap(t *testing.T) {
	_, why, ok := Lookup(X86_64, "synchronize_rcu")
	require.False(t, ok)
	require.Contains(t, why, "grace-period")
	_, why, ok = Lookup("mips", "smp_mb")
	require.False(t, ok)
	require.Contains(t, why, "mips")
}

// TestPPCZeroBase checks that r0 appears in the ppc64 rows only as the
// base of an X-form access, where it reads as 0.
func TestPPCZeroBase(t *testing.T) {
	for _, r := range Rows(PPC64) {
		insns, err := Parse(r.Code)
		require.NoError(t, err)
		for _, in := range insns {
			for j, arg := range in.Args {
				if arg == "r0" {
					require.Contains(t, []string{"lwarx", "stwcx."}, in.Op, "%s: %s uses r0", r.Prim, in)
					require.Equal(t, 1, j, "%s: %s uses r0 outside the base", r.Prim, in)
				}
			}
		}
	}
}

func TestHint(t *testing.T) {
	for _, c := range []struct {
		a    Arch
		code string
		hint bool
	}{
		{ARM64, "prfm pstl1strm, [x1]", true},
		{ARM64LLSC, "yield", true},
		{ARM64, "dmb ish", false},
		{RISCV64, "pause", true},
		{RISCV64, "fence r, rw", false},
		{PPC64, "or 1, 1, 1", true},
		{PPC64, "or 2, 2, 2", true},
		{PPC64, "or r30, r31, r29", false},
		{X86_64, "pause", false},
	} {
		insns, err := Parse(c.code)
		require.NoError(t, err)
		require.Equal(t, c.hint, Hint(c.a, insns[0]), "%s %q", c.a, c.code)
	}
}

// TestLabelTarget: "Nb" names the nearest definition of N at or before
// the branch, "Nf" the nearest after; other operands are no references.
func TestLabelTarget(t *testing.T) {
	insns := []Insn{{Label: "1", Op: "ldxr"}, {Op: "cbnz", Args: []string{"1b"}}, {Label: "1", Op: "nop"}, {Op: "b", Args: []string{"1b"}}, {Op: "b", Args: []string{"2f"}}, {Label: "2"}}
	for _, c := range []struct {
		at   int
		ref  string
		want int
		back bool
	}{{1, "1b", 0, true}, {3, "1b", 2, true}, {0, "1f", 2, false}, {4, "2f", 5, false}} {
		j, back, err := LabelTarget(insns, c.at, c.ref)
		require.NoError(t, err)
		require.Equal(t, c.want, j, "%d %s", c.at, c.ref)
		require.Equal(t, c.back, back)
	}
	_, _, err := LabelTarget(insns, 4, "3b")
	require.Error(t, err)
	require.True(t, IsLabelRef("12b"))
	require.False(t, IsLabelRef("b"))
	require.False(t, IsLabelRef("x1f"))
	require.False(t, IsLabelRef("#1"))
}
