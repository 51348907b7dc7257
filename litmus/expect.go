package litmus

import (
	"fmt"
	"regexp"
	"strings"
)

// expectRE matches a line of a (* *) comment that is an expectation, or
// looks like one, in any case:
//
//	Result: Never            (the kernel's convention: the LKMM verdict)
//	Result-TSO: Sometimes    (ours: one line per model)
//
// optionally behind the " * " of a boxed comment. The groups are the
// model name ("" for a plain Result line) and the first word after the
// colon ("" when there is none).
var expectRE = regexp.MustCompile(`(?mi)^[ \t*]*(result)(?:-([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*))?[ \t]*:[ \t]*([A-Za-z]*)`)

// Verdicts are the words an expectation line may give, in their
// canonical spelling: herd's three verdicts, the kernel's DEADLOCK (no
// execution reaches the end), and the two forms of the public kernel
// collections that expect no verdict: Maybe (judgelitmus.sh accepts any
// verdict) and Flag (the line names a flag the model raises).
var Verdicts = []string{"Never", "Sometimes", "Always", "DEADLOCK", "Maybe", "Flag"}

// Expectation is one expectation line of a test's comments.
type Expectation struct {
	Pos Pos // the R of Result
	// Model is the model name after "Result-", as written; "" for the
	// kernel's plain Result line. ModelPos is its first byte.
	Model    string
	ModelPos Pos
	// Value is the first word after the colon in its canonical spelling
	// (one of Verdicts) when it is one, else as written; "" when none
	// follows. ValuePos is its first byte (or where it would be).
	Value    string
	ValuePos Pos
}

// Known reports whether e's value is one of Verdicts.
func (e Expectation) Known() bool {
	for _, v := range Verdicts {
		if e.Value == v {
			return true
		}
	}
	return false
}

// ExpectationLines returns the expectation lines of t's comments in
// source order, with their positions.
func (t *Test) ExpectationLines() []Expectation {
	var out []Expectation
	for _, c := range t.Comments {
		base := c.Start + 2 // the text begins after "(*"
		for _, m := range expectRE.FindAllStringSubmatchIndex(c.Text, -1) {
			e := Expectation{Pos: base + Pos(m[2]), ValuePos: base + Pos(m[6]), Value: c.Text[m[6]:m[7]]}
			if m[4] >= 0 {
				e.Model, e.ModelPos = c.Text[m[4]:m[5]], base+Pos(m[4])
			}
			for _, v := range Verdicts {
				if strings.EqualFold(e.Value, v) {
					e.Value = v
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// Expectations returns the expected verdicts written in the test's
// comments, keyed by model name in upper case: "LKMM" for the kernel's
// "Result:" line and for "Result-LKMM:", "SC", "TSO", "PSO" (or any other
// name, "AARCH64-LLSC" for "Result-aarch64-llsc:") for "Result-SC:",
// "Result-TSO:", "Result-PSO:". Values are as ExpectationLines gives
// them: one of Verdicts in its canonical spelling, or the word as
// written when it is none (CheckExpectations reports those). When a
// model has several lines the first wins. The result is empty, not nil,
// when there are none.
func (t *Test) Expectations() map[string]string {
	out := map[string]string{}
	for _, e := range t.ExpectationLines() {
		model := strings.ToUpper(e.Model)
		if model == "" {
			model = "LKMM"
		}
		if _, dup := out[model]; !dup {
			out[model] = e.Value
		}
	}
	return out
}

// CheckExpectations reports each expectation line whose value is not one
// of Verdicts (in any case), with a suggestion when one is close: a
// misspelt "Result: Nevr" would otherwise leave the test with no
// expectation, and a check that passes. Model names are the model
// layer's to check.
func CheckExpectations(t *Test) ErrorList {
	var errs ErrorList
	for _, e := range t.ExpectationLines() {
		if e.Known() {
			continue
		}
		line := "Result"
		if e.Model != "" {
			line += "-" + e.Model
		}
		var msg string
		if e.Value == "" {
			msg = fmt.Sprintf("%s: expected a verdict (Never, Sometimes, Always or DEADLOCK)", line)
		} else {
			msg = fmt.Sprintf("%s: unknown verdict %s (want Never, Sometimes, Always or DEADLOCK)", line, e.Value)
			if s := Suggest(strings.ToLower(e.Value), lower(Verdicts)); s != "" {
				for _, v := range Verdicts {
					if strings.ToLower(v) == s {
						msg += "; did you mean " + v + "?"
					}
				}
			}
		}
		errs.Add(t.File.Position(e.ValuePos), msg)
	}
	return errs
}

func lower(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}
