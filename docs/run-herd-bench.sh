#!/bin/sh
# Times herd7 on the tests of the architecture benchmarks (BenchmarkArch in
# model/arch), for docs/performance.md. Usage, from the repository root:
#   HERD=/path/to/herd7 sh docs/run-herd-bench.sh
# It writes the generated tests with LITMUS_BENCH_DIR, runs the Go
# benchmarks once, then herd7 under the same model on the same files, and
# prints one line per test: architecture, test, herd7 seconds, herd7's
# Observation line. The shared corpus is timed as a whole (every
# non-mixed test of ../shared/corpus/arch/<arch>).
set -eu
: "${HERD:?path to herd7}"
dir=$(mktemp -d)
LITMUS_BENCH_DIR=$dir go test ./model/arch -run XXX -bench 'Arch/' -benchtime 1x
for a in aarch64 riscv ppc; do
	for f in "$dir"/$a/*.litmus; do
		s=$(date +%s.%N)
		obs=$("$HERD" -model $a.cat "$f" | grep '^Observation')
		e=$(date +%s.%N)
		printf '%s %s %.3f %s\n' $a "$(basename "$f" .litmus)" "$(echo "$e - $s" | bc)" "$obs"
	done
	s=$(date +%s.%N)
	find ../shared/corpus/arch/$a -name '*.litmus' -not -path '*/mixed/*' | while read -r f; do
		"$HERD" -model $a.cat "$f" > /dev/null 2>&1 || true
	done
	e=$(date +%s.%N)
	printf '%s corpus %.3f\n' $a "$(echo "$e - $s" | bc)"
done
rm -rf "$dir"
