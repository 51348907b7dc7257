package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var compareFlags struct {
	states bool
}

func init() {
	register(&Command{
		Name:      "compare",
		UsageLine: "compare [--states=false] OLD NEW",
		Short:     "merge the --json outputs of two runs and list the verdicts that changed",
		Long: `
Compare reads the JSON Lines of two runs of 'litmus check --json' and lists
every result whose verdict or final states differ: two versions of
linux-kernel.cat (--model-dir), two versions of litmus, or the LKMM
against an architecture model. It does for litmus what the kernel's
cmplitmushist.sh does for herd7's outputs.

OLD and NEW are each a .jsonl file or a directory: the directory's files
whose names end in .jsonl or .json (the outputs of the shards of a CI
matrix, 'check --shard K/N') are merged. A result is a test file under a
model; a file that appears twice on one side with two answers is an input
error. When each side holds one model only and the two differ (lkmm
against aarch64, say), results are paired by file alone.

Output, one line per difference, sorted by file then model:

	CHANGED   FILE MODEL: OLD -> NEW        the verdict changed
	STATES    FILE MODEL: V, +A -B states   same verdict, other final states
	ONLY-OLD  FILE MODEL: V                 no result in NEW
	ONLY-NEW  FILE MODEL: V                 no result in OLD

then a summary line with the counts and the Unknown results on each side.
A verdict is the "observation" of the record: Never, Sometimes, Always,
Unknown or Error.

Exit status: 0 when both runs give the same answers for the same results;
1 when some verdict or state set differs or a result is on one side only;
2 for usage and input errors (an unreadable file, a line that is not a
result, with its file:line).

Flags:
	--states=false   compare the verdicts only, not the final states
`,
		SetFlags: func(fs *flag.FlagSet) {
			compareFlags.states = true
			fs.BoolVar(&compareFlags.states, "states", true, "also compare the final states")
		},
		Run: runCompare,
	})
}

// record is what compare reads of a result of check --json.
type record struct {
	File        string   `json:"file"`
	Model       string   `json:"model"`
	Observation string   `json:"observation"`
	States      []string `json:"states"`
	Error       *string  `json:"error"`
	where       string   // file:line it was read from
}

// side is one side of the comparison: its results by key.
type side struct {
	recs   map[string]*record
	models map[string]bool
}

func runCompare(_ context.Context, env *Env, args []string) int {
	if len(args) != 2 {
		env.Errorf("usage: litmus compare [--states=false] OLD NEW")
		return exitUsage
	}
	var sides [2]*side
	for i, a := range args {
		r, err := readRun(a)
		if err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
		sides[i] = r
	}
	old, new := sides[0], sides[1]
	byFile := len(old.models) == 1 && len(new.models) == 1 && !sameKeys(old.models, new.models)
	key := func(r *record) string {
		if byFile {
			return r.File
		}
		return r.File + "\x00" + r.Model
	}
	om, nm := rekey(old, key), rekey(new, key)
	keys := map[string]bool{}
	for k := range om {
		keys[k] = true
	}
	for k := range nm {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if byFile {
		fmt.Fprintf(w, "comparing %s (%s) with %s (%s) by file\n", args[0], oneKey(old.models), args[1], oneKey(new.models))
	}
	var same, changed, statesChanged, onlyOld, onlyNew, unkOld, unkNew int
	for _, k := range sorted {
		o, n := om[k], nm[k]
		if o != nil && o.Observation == "Unknown" {
			unkOld++
		}
		if n != nil && n.Observation == "Unknown" {
			unkNew++
		}
		switch {
		case n == nil:
			onlyOld++
			fmt.Fprintf(w, "ONLY-OLD  %s %s: %s\n", o.File, o.Model, o.Observation)
		case o == nil:
			onlyNew++
			fmt.Fprintf(w, "ONLY-NEW  %s %s: %s\n", n.File, n.Model, n.Observation)
		case o.Observation != n.Observation:
			changed++
			fmt.Fprintf(w, "CHANGED   %s %s: %s -> %s\n", n.File, modelPair(o, n), o.Observation, n.Observation)
		default:
			if compareFlags.states {
				if gained, lost := stateDiff(o.States, n.States); gained+lost > 0 {
					statesChanged++
					fmt.Fprintf(w, "STATES    %s %s: %s, +%d -%d states\n", n.File, modelPair(o, n), n.Observation, gained, lost)
					continue
				}
			}
			same++
		}
	}
	fmt.Fprintf(w, "%d results: %d same, %d changed verdict, %d changed states, %d only in OLD, %d only in NEW; Unknown: %d in OLD, %d in NEW\n",
		len(sorted), same, changed, statesChanged, onlyOld, onlyNew, unkOld, unkNew)
	if changed+statesChanged+onlyOld+onlyNew > 0 {
		return exitCheck
	}
	return exitOK
}

// readRun reads one side: a file of JSON Lines, or every .jsonl and
// .json file of a directory, in name order.
func readRun(arg string) (*side, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, err
	}
	files := []string{arg}
	if st.IsDir() {
		files = nil
		ents, err := os.ReadDir(arg)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".jsonl") || strings.HasSuffix(e.Name(), ".json")) {
				files = append(files, filepath.Join(arg, e.Name()))
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no .jsonl or .json files", arg)
		}
	}
	r := &side{recs: map[string]*record{}, models: map[string]bool{}}
	for _, f := range files {
		if err := r.read(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *side) read(file string) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 1<<16)
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(text))) > 0 {
			var rec record
			where := fmt.Sprintf("%s:%d", file, line)
			if jerr := json.Unmarshal(text, &rec); jerr != nil || rec.File == "" || rec.Observation == "" {
				return fmt.Errorf("%s: not a result of 'litmus check --json'", where)
			}
			rec.where = where
			k := rec.File + "\x00" + rec.Model
			if prev, ok := r.recs[k]; ok && !sameAnswer(prev, &rec) {
				return fmt.Errorf("%s: %s under %s again, with another answer than at %s", where, rec.File, rec.Model, prev.where)
			}
			r.recs[k] = &rec
			r.models[rec.Model] = true
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
	}
}

func sameAnswer(a, b *record) bool {
	if a.Observation != b.Observation || len(a.States) != len(b.States) {
		return false
	}
	for i := range a.States {
		if a.States[i] != b.States[i] {
			return false
		}
	}
	return true
}

// rekey returns r's records under key.
func rekey(r *side, key func(*record) string) map[string]*record {
	m := make(map[string]*record, len(r.recs))
	for _, rec := range r.recs {
		m[key(rec)] = rec
	}
	return m
}

// stateDiff counts the states of n not in o and those of o not in n.
func stateDiff(o, n []string) (gained, lost int) {
	in := make(map[string]bool, len(o))
	for _, s := range o {
		in[s] = true
	}
	for _, s := range n {
		if !in[s] {
			gained++
		}
		delete(in, s)
	}
	return gained, len(in)
}

func modelPair(o, n *record) string {
	if o.Model == n.Model {
		return n.Model
	}
	return o.Model + "->" + n.Model
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func oneKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}
