#!/bin/sh
# Times herd7 on the architecture rows of the table in docs/performance.md
# (model/arch: BenchmarkX86SBRing/N=12 under x86tso.cat, BenchmarkArch's
# SBring10 under aarch64.cat, riscv.cat and ppc.cat). Usage, from the
# repository root:
#   HERD=/path/to/herd7 sh docs/run-herd-arch.sh [TEST-NAME-PATTERN]
# It writes the generated tests with LITMUS_BENCH_DIR (one iteration of
# the Go benchmarks), then runs herd7 under the architecture's model on
# each file whose path matches the pattern (grep -E; default: the table's
# rows), printing one line per test: architecture/test, herd7 user+system
# seconds, herd7's Observation line.
set -eu
: "${HERD:?path to herd7}"
pattern=${1:-'x86/SB-ring-12|(aarch64|riscv|ppc)/SB-ring-10'}
dir=$(mktemp -d)
LITMUS_BENCH_DIR=$dir go test ./model/arch -run XXX -bench 'X86SBRing/N=12/op-tso|Arch/(aarch64|riscv|ppc)/SBring10$' -benchtime 1x -cpu 1 >/dev/null
herd1() { # one herd7 run: its user+system seconds and its Observation line
	t=$(mktemp)
	obs=$(/usr/bin/time -f '%U %S' -o "$t" "$HERD" "$@" | grep '^Observation' || true)
	printf '%s %s\n' "$(awk '{print $1 + $2}' "$t")" "$obs"
	rm -f "$t"
}
for f in "$dir"/*/*.litmus; do
	name=$(basename "$(dirname "$f")")/$(basename "$f" .litmus)
	echo "$name" | grep -Eq "$pattern" || continue
	a=$(basename "$(dirname "$f")")
	m=$a.cat
	[ "$a" = x86 ] && m=x86tso.cat
	printf '%s %s\n' "$name" "$(herd1 -model "$m" "$f")"
done
rm -rf "$dir"
