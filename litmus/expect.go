package litmus

import (
	"regexp"
	"strings"
)

// expectRE matches an expectation line inside a (* *) comment:
//
//	Result: Never            (the kernel's convention: the LKMM verdict)
//	Result-TSO: Sometimes    (ours: one line per model)
//
// optionally behind the " * " of a boxed comment.
var expectRE = regexp.MustCompile(`(?m)^[ \t*]*Result(?:-([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*))?[ \t]*:[ \t]*([A-Za-z]+)`)

// Expectations returns the expected verdicts written in the test's
// comments, keyed by model name in upper case: "LKMM" for the kernel's
// "Result:" line and for "Result-LKMM:", "SC", "TSO", "PSO" (or any other
// name, "AARCH64-LLSC" for "Result-aarch64-llsc:") for "Result-SC:",
// "Result-TSO:", "Result-PSO:". Values are the
// word as written, normally Never, Sometimes or Always (the kernel also
// has "Result: DEADLOCK"); checking them is the caller's business. When a
// model has several lines the first wins. The result is empty, not nil,
// when there are none.
func (t *Test) Expectations() map[string]string {
	out := map[string]string{}
	for _, c := range t.Comments {
		for _, m := range expectRE.FindAllStringSubmatch(c.Text, -1) {
			model := strings.ToUpper(m[1])
			if model == "" {
				model = "LKMM"
			}
			if _, dup := out[model]; !dup {
				out[model] = m[2]
			}
		}
	}
	return out
}
