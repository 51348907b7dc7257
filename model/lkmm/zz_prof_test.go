package lkmm

import (
	"context"
	"os"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
)

func TestZZProf(t *testing.T) {
	f := os.Getenv("PROF_TEST")
	if f == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(f)
	test, err := litmus.Parse(f, b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(context.Background(), test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Verdict, r.Positive, r.Negative, r.Candidates)
}
