package model

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/report"
)

// The vocabulary of a check lives in model/report, which every engine
// shares; these aliases keep it under this package's name for callers.
type (
	Options   = report.Options
	Verdict   = report.Verdict
	Result    = report.Result
	State     = report.State
	LocValue  = report.LocValue
	Value     = report.Value
	Trace     = report.Trace
	StepKind  = report.StepKind
	Source    = report.Source
	Step      = report.Step
	Violation = report.Violation
	Stuck     = report.Stuck
	Fault     = report.Fault
	Stats     = report.Stats
	PropError = report.PropError
)

// The verdicts, step kinds, load sources and default limits.
const (
	Never     = report.Never
	Sometimes = report.Sometimes
	Always    = report.Always
	Unknown   = report.Unknown

	StepInstr = report.StepInstr
	StepDrain = report.StepDrain
	StepBlock = report.StepBlock

	FromNone   = report.FromNone
	FromMemory = report.FromMemory
	FromBuffer = report.FromBuffer

	DefaultMaxStates = report.DefaultMaxStates
	DefaultMaxMemory = report.DefaultMaxMemory
)

// Condition returns herd's words for t's condition (report.Condition).
func Condition(t *litmus.Test) (kind, condition string) { return report.Condition(t) }
