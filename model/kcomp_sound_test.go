package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/stretchr/testify/require"
)

// symbolic is a value herd and the LKMM leave symbolic (a thin-air
// cycle's "S9").
var symbolic = regexp.MustCompile(`^S[0-9]+$`)

// stateIn reports whether final state a (under an architecture model) is
// one of states: equal location by location, where a symbolic value of
// the LKMM's stands for any value, the same one wherever it appears.
func stateIn(a State, states []State) bool {
	for _, s := range states {
		if len(s.Values) != len(a.Values) {
			continue
		}
		bind := map[string]Value{}
		ok := true
		for i, v := range s.Values {
			w := a.Values[i]
			if v.Loc != w.Loc {
				ok = false
				break
			}
			if symbolic.MatchString(v.Val.Sym) {
				if b, seen := bind[v.Val.Sym]; seen && b != w.Val {
					ok = false
					break
				}
				bind[v.Val.Sym] = w.Val
				continue
			}
			if v.Val != w.Val {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// soundnessKnown reads testdata/kcomp-soundness-known.txt: "test model:
// reason" lines, the counter-examples found and explained.
func soundnessKnown(t *testing.T) map[string]string {
	data, err := os.ReadFile("testdata/kcomp-soundness-known.txt")
	require.NoError(t, err)
	known := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, why, ok := strings.Cut(l, ": ")
		require.True(t, ok, "line %q", l)
		known[key] = why
	}
	return known
}

// TestArchWeakerThanLKMMNever is the soundness cross-check of the kernel's
// mappings: the LKMM is meant to be weaker than every architecture under
// them, so on a test the LKMM finds free of data races, every final state
// an architecture model reaches on the compiled test must be one the LKMM
// reaches. It runs over every C test of the shared corpus
// (../shared/corpus/lkmm) and the generated tests of
// lkmm/testdata/herdgen, in about 2 s. A
// counter-example is printed with the compiled test and the architecture
// model's explanation, and fails the test unless
// testdata/kcomp-soundness-known.txt lists it with a reason.
func TestArchWeakerThanLKMMNever(t *testing.T) {
	var files []string
	if _, err := os.Stat(corpus + "/lkmm"); err == nil {
		require.NoError(t, filepath.Walk(corpus+"/lkmm", func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".litmus") {
				files = append(files, p)
			}
			return err
		}))
	}
	gen, err := filepath.Glob("lkmm/testdata/herdgen/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, gen)
	sort.Strings(gen)
	files = append(files, gen...)
	known := soundnessKnown(t)
	found := map[string]bool{}
	var drf, racy, lkmmOpen, compared, notCompiled, archOpen, extra, other int
	start := time.Now()
	opt := Options{Timeout: 10 * time.Second, NoWitness: true}
	for _, file := range files {
		test, err := litmus.ParseFile(file)
		if err != nil || test.Arch != litmus.ArchC {
			other++ // the corpus's tests of other dialects and its bad inputs
			continue
		}
		lk, err := Check(context.Background(), test, LKMM, opt)
		if err != nil || lk.Verdict == Unknown {
			lkmmOpen++
			continue
		}
		if len(lk.Flags) > 0 {
			// A data race (or another flag: a lock misused): the
			// outcome is undefined under the LKMM.
			racy++
			continue
		}
		drf++
		for _, m := range compiledModels {
			res, err := Check(context.Background(), test, m, opt)
			switch {
			case err != nil && kcomp.IsNotCompiled(err):
				notCompiled++
				continue
			case err != nil:
				t.Errorf("%s under %s: %v", file, m, err)
				continue
			case res.Verdict == Unknown:
				archOpen++
				continue
			}
			compared++
			var more []string
			for _, s := range res.States.All() {
				if !stateIn(s, lk.States.Slice()) {
					more = append(more, s.String())
				}
			}
			if len(more) == 0 {
				continue
			}
			extra++
			key := test.Name + " " + m.String()
			found[key] = true
			if _, ok := known[key]; ok {
				continue
			}
			c, _ := Compile(test, m)
			why := ""
			if w, err := Check(context.Background(), test, m, Options{Timeout: 10 * time.Second}); err == nil {
				why = w.Why
			}
			t.Errorf("%s: %s reaches final states the LKMM does not (add a line to testdata/kcomp-soundness-known.txt once explained):\n%s\nLKMM's states: %v\ncompiled test:\n%s\n%s", file, m, strings.Join(more, "\n"), stateStrings(lk.States.Slice()), c.Text, why)
		}
	}
	for key, why := range known {
		if !found[key] {
			t.Errorf("testdata/kcomp-soundness-known.txt: %s (%s) is no counter-example any more", key, why)
		}
	}
	t.Logf("%d files (%d not C or not parsed), %d DRF C tests (%d racy or flagged, %d Unknown or refused under LKMM); %d arch checks compared, %d not compiled, %d Unknown; %d counter-examples (%d known); %s",
		len(files), other, drf, racy, lkmmOpen, compared, notCompiled, archOpen, extra, len(known), time.Since(start).Round(time.Second))
}

func stateStrings(sts []State) []string {
	var out []string
	for _, s := range sts {
		out = append(out, fmt.Sprint(s.String()))
	}
	return out
}

// TestStateInFindsExtraStates: the comparison of the soundness check can
// fail: x86-TSO's store buffering state of SB is no SC state, and a
// symbolic value binds one value wherever it appears.
func TestStateInFindsExtraStates(t *testing.T) {
	test, err := parseSrc("sb.litmus", "C sb\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*x, 1);\n\tr0 = READ_ONCE(*y);\n}\nP1(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*y, 1);\n\tr0 = READ_ONCE(*x);\n}\nexists (0:r0=0 /\\ 1:r0=0)\n")
	require.NoError(t, err)
	sc, err := Check(context.Background(), test, SC, Options{})
	require.NoError(t, err)
	arm, err := Check(context.Background(), test, AArch64, Options{})
	require.NoError(t, err)
	var more []string
	for _, s := range arm.States.All() {
		if !stateIn(s, sc.States.Slice()) {
			more = append(more, s.String())
		}
	}
	require.Equal(t, []string{"0:r0=0; 1:r0=0;"}, more)
	for _, s := range sc.States.All() {
		require.True(t, stateIn(s, arm.States.Slice()), s.String())
	}
	sym := State{Values: []LocValue{{Loc: "0:r1", Val: Value{Sym: "S9"}}, {Loc: "1:r1", Val: Value{Sym: "S9"}}}}
	require.True(t, stateIn(State{Values: []LocValue{{Loc: "0:r1", Val: Value{Int: 3}}, {Loc: "1:r1", Val: Value{Int: 3}}}}, []State{sym}))
	require.False(t, stateIn(State{Values: []LocValue{{Loc: "0:r1", Val: Value{Int: 3}}, {Loc: "1:r1", Val: Value{Int: 4}}}}, []State{sym}))
}
