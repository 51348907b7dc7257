package model

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kcomp"
)

// stateProp is the proposition that holds exactly in final state s.
func stateProp(t *testing.T, s State) litmus.Prop {
	var atoms []string
	for _, lv := range s.Values {
		atoms = append(atoms, lv.Loc+"="+lv.Val.String())
	}
	src := "C state\n{}\nP0(int *x)\n{\n}\nexists (" + strings.Join(atoms, ` /\ `) + ")\n"
	pt, err := litmus.Parse("state", []byte(src))
	require.NoError(t, err)
	return pt.Cond.Prop
}

// TestAxiomaticWitnessOfEveryState: under every axiomatic model, each
// reachable final state has a witness execution (Options.WitnessFor with
// Explain) whose final state is that state, and an unreachable one has
// none; the count of executions reaching the states adds up to all the
// allowed executions.
func TestAxiomaticWitnessOfEveryState(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.litmus")
	require.NoError(t, err)
	models := []Model{LKMM, AArch64, AArch64LLSC, RISCV, PPC}
	checked := 0
	for _, f := range files {
		test := parseFile(t, f)
		for _, m := range models {
			r, err := Check(context.Background(), test, m, Options{})
			if kcomp.IsNotCompiled(err) {
				continue // RCU grace periods have no instructions
			}
			require.NoError(t, err, "%s under %s", f, m)
			if r.Verdict == Unknown {
				continue
			}
			total := 0
			for _, s := range r.States.All() {
				w, err := Check(context.Background(), test, m, Options{Explain: true, WitnessFor: stateProp(t, s)})
				require.NoError(t, err)
				require.Positive(t, w.Matches, "%s under %s: no execution reaches %s", f, m, s)
				require.NotNil(t, w.Graph, "%s under %s: no witness of %s", f, m, s)
				require.Equal(t, s.String(), w.Graph.Final, "%s under %s: the witness of %s", f, m, s)
				require.Empty(t, w.Graph.Rejected)
				require.Equal(t, r.Verdict, w.Verdict, "--state does not change the verdict")
				total += w.Matches
				checked++
			}
			require.Equal(t, r.Positive+r.Negative, total, "%s under %s: every allowed execution ends in one state", f, m)
		}
	}
	require.Positive(t, checked)
}
