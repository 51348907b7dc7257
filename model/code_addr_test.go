package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// codeFaultTests are the code tests whose executions access memory
// through NULL or a wild pointer, with the line of the access.
var codeFaultTests = []struct {
	file string
	line string
}{
	{"../testdata/code/rcu-null-code.litmus", "44"},
	{"../testdata/code/ring-underrun-code.litmus", "47"},
}

// allCodeTests lists every bundled code test and twin.
func allCodeTests() []string {
	var out []string
	for _, tw := range codeTwins {
		out = append(out, tw.code, tw.twin)
	}
	for _, f := range codeFaultTests {
		out = append(out, f.file)
	}
	return out
}

// TestCodeFaults checks that an access through NULL or a wild pointer
// that some execution makes is a finding with its place (and, under the
// operational models, its trace) in a test with objects, under every
// model: the operational ones, the LKMM, the architectures (the compiled
// test's access named by the C access it comes from) and the cat
// interpreter on the kernel's model; and that no other code test has
// one.
func TestCodeFaults(t *testing.T) {
	models := allModels()
	if _, err := os.Stat(kernelModelDir); err == nil {
		kernel, err := LoadKernel(kernelModelDir)
		require.NoError(t, err)
		models = append(models, kernel)
	}
	for _, f := range codeFaultTests {
		test, err := litmus.ParseFile(f.file)
		require.NoError(t, err)
		for _, m := range models {
			r, err := Check(context.Background(), test, m, Options{})
			require.NoError(t, err, "%s under %s", f.file, m)
			require.True(t, r.FaultsChecked, "%s under %s", f.file, m)
			require.NotEmpty(t, r.Faults, "%s under %s: the fault is found", f.file, m)
			require.Contains(t, r.Flags, "bad-address", "%s under %s", f.file, m)
			fault := r.Faults[0].Fault
			require.NotNil(t, fault, "%s under %s: the fault in parts", f.file, m)
			require.Equal(t, 1, fault.Thread, "%s under %s", f.file, m)
			require.Equal(t, f.line, strconv.Itoa(fault.Pos.Line), "%s under %s: the line of the access", f.file, m)
			require.True(t, fault.Witness, "%s under %s: a witness", f.file, m)
			reason := r.Faults[0].Reason
			if m.Axiomatic() {
				require.Contains(t, reason, filepath.Base(f.file)+":"+f.line+":", "%s: the place of the access", f.file)
				require.Equal(t, fault.String(), reason, "%s under %s", f.file, m)
			} else {
				require.Contains(t, reason, "at line "+f.line+":", "%s under %s", f.file, m)
				require.NotEmpty(t, r.Faults[0].Trace.Steps, "%s under %s: the witness trace", f.file, m)
			}
		}
	}
	for _, path := range allCodeTests()[:2*len(codeTwins)] {
		test, err := litmus.ParseFile(path)
		require.NoError(t, err)
		for _, m := range []Model{SC, TSO, PSO, LKMM} {
			r, err := Check(context.Background(), test, m, Options{})
			require.NoError(t, err)
			require.Empty(t, r.Faults, "%s under %s", path, m)
			require.NotContains(t, r.Flags, "bad-address")
		}
	}
	// A plain test without objects keeps herd's meaning: the execution
	// that dereferences NULL is dropped, not a finding.
	plain, err := litmus.Parse("null.litmus", []byte("C null\n{ int *p; }\nP0(int **p)\n{\n\tint *q = READ_ONCE(*p);\n\tint r0 = READ_ONCE(*q);\n}\nexists (0:r0=0)\n"))
	require.NoError(t, err)
	for _, m := range []Model{SC, LKMM} {
		r, err := Check(context.Background(), plain, m, Options{})
		require.NoError(t, err)
		require.False(t, r.FaultsChecked, m.String())
		require.Empty(t, r.Faults, m.String())
	}
}

// stateSet is a result's final states as a set of lines.
func stateSet(r *Result) map[string]bool {
	s := map[string]bool{}
	for _, l := range stateLines(r) {
		s[l] = true
	}
	return s
}

// TestCodeAgreement is the differential test of the engines on every
// bundled code test and twin: the reduced operational search against
// the plain one; SC ⊆ TSO ⊆ PSO; every SC state allowed by the LKMM;
// on a test the LKMM finds free of data races, every state of each
// architecture (on the compiled test) one the LKMM reaches, and every SC
// state one the architecture reaches; the flattened form (compile
// --model lkmm, parsed back) with the code test's states under each
// model; every model's faults (an access through NULL or a wild
// pointer) against the LKMM's: the same accesses, with the same values
// under the axiomatic models (knownFaultDiff lists a difference that is
// a known bug), the same threads and lines under sc, tso and pso; and,
// with the kernel's model files in the shared corpus, the cat
// interpreter on linux-kernel.cat with the native LKMM's verdict, states
// and faults.
func TestCodeAgreement(t *testing.T) {
	var kernel Model
	haveKernel := false
	if _, err := os.Stat(kernelModelDir); err == nil {
		var lerr error
		kernel, lerr = LoadKernel(kernelModelDir)
		require.NoError(t, lerr)
		haveKernel = true
	}
	for _, path := range allCodeTests() {
		t.Run(filepath.Base(path), func(t *testing.T) {
			test, err := litmus.ParseFile(path)
			require.NoError(t, err)
			res := map[Model]*Result{}
			for _, m := range allModels() {
				r, err := Check(context.Background(), test, m, Options{})
				require.NoError(t, err, m.String())
				res[m] = r
			}
			known := func(m Model) bool { return res[m].Verdict != Unknown }
			for _, m := range []Model{SC, TSO, PSO} {
				plain, err := Check(context.Background(), test, m, Options{Plain: true})
				require.NoError(t, err)
				require.Equal(t, stateLines(plain), stateLines(res[m]), "%s: the reduced and the plain search", m)
			}
			sub := func(a, b Model) {
				if !known(a) || !known(b) {
					return
				}
				bs := stateSet(res[b])
				for s := range stateSet(res[a]) {
					require.True(t, bs[s], "%s reaches %q, which %s does not", a, s, b)
				}
			}
			sub(SC, TSO)
			sub(TSO, PSO)
			sub(SC, LKMM)
			raced := slices.Contains(res[LKMM].Flags, "data-race")
			for _, m := range ArchModels() {
				sub(SC, m)
				if !raced && known(m) && known(LKMM) {
					lk := res[LKMM].States.Slice()
					for _, s := range res[m].States.Slice() {
						require.True(t, stateIn(s, lk), "%s reaches %v, which the LKMM does not", m, s)
					}
				}
			}
			if test.Code != nil {
				flat, err := litmus.Parse(path+".flat", litmus.Format(test))
				require.NoError(t, err)
				for _, m := range allModels() {
					r, err := Check(context.Background(), flat, m, Options{})
					require.NoError(t, err, m.String())
					require.Equal(t, res[m].Verdict, r.Verdict, "%s: the flattened form", m)
					require.Equal(t, stateLines(res[m]), stateLines(r), "%s: the flattened form", m)
					require.Equal(t, len(res[m].Faults), len(r.Faults), "%s: the flattened form's faults", m)
				}
			}
			// Faults: every model looks for them in a test with objects
			// and finds the same ones; the axiomatic models name the
			// same access with the same value, the operational ones the
			// same thread and line (their place is the statement's).
			objects := test.Code != nil || len(test.Objects) > 0
			lk := faultTexts(res[LKMM])
			for _, m := range allModels() {
				require.Equal(t, objects, res[m].FaultsChecked, "%s looks for faults", m)
				if m.Axiomatic() {
					want := lk
					if d, ok := knownFaultDiff[filepath.Base(path)+" "+m.String()]; ok {
						require.Equal(t, want, d.lkmm, "%s: the LKMM's faults, known to differ from %s's (%s)", m, m, d.why)
						want = d.got
					}
					require.Equal(t, want, faultTexts(res[m]), "%s: the faults, against the LKMM's", m)
				}
				require.Equal(t, faultLines(res[LKMM]), faultLines(res[m]), "%s: the faults' threads and lines, against the LKMM's", m)
			}
			if haveKernel {
				r, err := Check(context.Background(), test, kernel, Options{})
				require.NoError(t, err)
				require.Equal(t, lk, faultTexts(r), "linux-kernel.cat's faults and the native LKMM's")
				require.Equal(t, res[LKMM].Verdict, r.Verdict, "linux-kernel.cat and the native LKMM")
				if known(LKMM) {
					require.Equal(t, stateLines(res[LKMM]), stateLines(r), "linux-kernel.cat and the native LKMM")
					require.Equal(t, raced, slices.Contains(r.Flags, "data-race"), "the data-race flag")
				}
			}
		})
	}
}

// knownFaultDiff lists, by "file model", the fault tests where a model
// finds the LKMM's fault with another value, and why: the entry holds
// both lists, so that a fix (or another change) shows up as a failure
// that asks for the entry to go.
var knownFaultDiff = map[string]struct {
	lkmm, got []string
	why       string
}{
	// (none: ring-underrun-code under ppc, whose index's << kcomp
	// compiled to the 32-bit slw, agrees since kcomp shifts 64 bits)
}

// faultTexts is a result's faults, each as its Reason.
func faultTexts(r *Result) []string {
	var out []string
	for _, f := range r.Faults {
		out = append(out, f.Reason)
	}
	return out
}

// faultLines is a result's faults as "P<thread> line <n>", sorted and
// unique (an operational model reports a fault once per dead-end state).
func faultLines(r *Result) []string {
	var out []string
	for _, f := range r.Faults {
		if f.Fault == nil {
			out = append(out, "no Fault: "+f.Reason)
			continue
		}
		out = append(out, fmt.Sprintf("P%d line %d", f.Fault.Thread, f.Fault.Pos.Line))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
