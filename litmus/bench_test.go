package litmus

import (
	"os"
	"testing"
)

// BenchmarkParseCorpus parses every corpus test once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	var srcs [][]byte
	for _, sub := range []string{"lkmm", "x86"} {
		for _, f := range corpusFiles(b, sub) {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			srcs = append(srcs, src)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, src := range srcs {
			if _, err := Parse("bench.litmus", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFormatCorpus prints every corpus test once per iteration.
func BenchmarkFormatCorpus(b *testing.B) {
	var tests []*Test
	for _, sub := range []string{"lkmm", "x86"} {
		for _, f := range corpusFiles(b, sub) {
			t, err := ParseFile(f)
			if err != nil {
				b.Fatal(err)
			}
			tests = append(tests, t)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, t := range tests {
			Format(t)
		}
	}
}

// BenchmarkParseArchCorpus parses every AArch64, RISCV and PPC test of
// the corpus once per iteration.
func BenchmarkParseArchCorpus(b *testing.B) {
	var srcs [][]byte
	for _, f := range corpusFiles(b, "arch") {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, src := range srcs {
			if _, err := Parse("bench.litmus", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
