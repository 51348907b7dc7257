package advice

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kmap"
)

// What Suggest returns. The package never prints: cmd/litmus renders a
// Report as text or JSON Lines.

// ModelVerdict is one model's verdict on one version of the test.
type ModelVerdict struct {
	Model   model.Model
	Verdict model.Verdict
	Ok      bool
	Reason  string // why it is Unknown, when it is
}

// Tried is a cheaper primitive that does not keep the verdict.
type Tried struct {
	Suggest  string // its source text, "" for removing the construct
	Label    string // how it prints: "nothing", "smp_wmb()"
	Verdicts []ModelVerdict
	Broken   []model.Model // the models whose verdict it changes
	// Complete reports whether every model was checked; else the
	// checks stopped at the first model it breaks.
	Complete bool
	Note     string
}

// ArchCost is what one architecture emits for the construct and for the
// suggestion: the ordering instructions of their kmap rows.
type ArchCost struct {
	Arch     kmap.Arch
	From, To string // "dmb ish", "nothing"
	Relation string // "cheaper", "same", "dearer", "incomparable"
}

// Edit is one change of the source the suggestion makes.
type Edit struct {
	Line     int
	From, To string
}

// Alternative is another sufficient primitive that is not dearer than
// the suggestion everywhere: cheaper on some architectures, incomparable
// or dearer on others.
type Alternative struct {
	Suggest string
	Label   string
	Edits   []Edit
	Costs   []ArchCost // against the suggestion
	Why     string
}

// Advice is the answer for one construct.
type Advice struct {
	Pos       litmus.Position
	Thread    int
	Kind      Kind
	Construct string // the construct as written, "smp_mb()"
	// Suggest is the source text of the cheapest primitive that keeps
	// the verdict: the construct itself when nothing cheaper does, ""
	// when it can go.
	Suggest string
	Label   string // how the suggestion prints
	Keep    bool   // nothing cheaper keeps the verdict
	Remove  bool   // the construct can go
	Edits   []Edit
	Costs   []ArchCost // the construct against the suggestion
	// Verdicts are the models' verdicts on the test with this suggestion
	// and those chosen before it.
	Verdicts     []ModelVerdict
	Rejected     []Tried // the cheaper primitives tried, cheapest first
	Alternatives []Alternative
	Note         string // what the suggestion relies on
	// Alone says when the cheapest primitive keeps the verdict on its
	// own but not with the weakenings chosen before it.
	Alone string
	None  string // why no cheaper primitive was tried
}

// Report is the advice on one test.
type Report struct {
	Name     string
	Models   []model.Model
	Baseline []ModelVerdict
	Advice   []Advice
	// Final are the verdicts of the test with every suggestion applied
	// at once: the baseline verdicts, by construction, as checked.
	Final []ModelVerdict
	// Unknown is set when some check ended Unknown: a primitive it
	// judged is then not suggested, and the advice may not be the
	// cheapest.
	Unknown string
	Checks  int // the checks run
}
