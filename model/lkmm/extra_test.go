package lkmm

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
)

// TestExtraDir checks the C tests of the directory named by $LKMM_EXTRA
// against their "Result:" comments, and logs each verdict. It is a tool
// for trying the engine on more tests than the shared corpus holds; it
// skips when the variable is unset.
func TestExtraDir(t *testing.T) {
	dir := os.Getenv("LKMM_EXTRA")
	if dir == "" {
		t.Skip("LKMM_EXTRA not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.litmus"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			test, err := litmus.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Check(context.Background(), test, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %d %d flags=%v states=%d why=%s %s", res.Verdict, res.Positive, res.Negative, res.Flags, res.States.Len(), res.Why, res.Reason)
			if want := test.Expectations()["LKMM"]; (want == "Never" || want == "Sometimes" || want == "Always") && want != res.Verdict.String() {
				t.Errorf("Result: %s, engine says %s", want, res.Verdict)
			}
		})
	}
}
