#!/bin/sh
# run-vs-litmus7.sh: litmus run and litmus7 side by side, on the same tests,
# one after the other, with default options on both (docs/performance.md).
#
# Usage: docs/run-vs-litmus7.sh [TEST.litmus...]
# Environment: LITMUS7 (default /work/tools/herd-7.58/bin/litmus7).
#
# For each test it prints one line per tool: iterations, seconds,
# iterations per second, and the instances where the condition's
# proposition held (Positive for exists) and those per second. litmus7's
# generated C and binaries stay in a temporary directory, removed at exit.
set -eu
cd "$(dirname "$0")/.."
LITMUS7=${LITMUS7:-/work/tools/herd-7.58/bin/litmus7}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/litmus" ./cmd/litmus
if [ $# -eq 0 ]; then
	set -- internal/harness/testdata/SB.litmus internal/harness/testdata/MP.litmus \
		internal/harness/testdata/LB.litmus internal/harness/testdata/2+2W.litmus \
		internal/harness/testdata/SB+mfences.litmus internal/harness/testdata/IRIW.litmus
fi
# fields NAME OUTPUT: iterations seconds positive, from litmus7's format.
fields() {
	awk -v name="$1" '
		/^Observation / { n = $4 + $5 }
		/^Positive: / { gsub(",", "", $2); pos = $2 }
		$1 == "Time" && $2 == name { t = $3 }
		END { if (t == "") t = 0; printf "%d %s %d\n", n, t, pos + 0 }'
}
row() { # tool test iterations seconds positive
	awk -v tool="$1" -v test="$2" -v n="$3" -v s="$4" -v p="$5" 'BEGIN {
		if (s == 0) { printf "%-12s %-10s did not finish\n", test, tool; exit }
		printf "%-12s %-10s %10d %8.2f %12.0f %10d %12.1f\n", test, tool, n, s, n / s, p, p / s }'
}
printf "%-12s %-10s %10s %8s %12s %10s %12s\n" test tool iterations seconds iter/s positive positive/s
for f in "$@"; do
	name=$(awk 'NR == 1 { print $2; exit }' "$f")
	d="$T/l7-$name"
	mkdir -p "$d"
	"$LITMUS7" -o "$d" "$f" > /dev/null
	(cd "$d" && make -s > /dev/null 2>&1)
	out7=$(cd "$d" && sh ./run.sh) || true
	set -- $(printf '%s\n' "$out7" | fields "$name")
	row litmus7 "$name" "$1" "$2" "$3"
	out=$("$T/litmus" run "$f")
	set -- $(printf '%s\n' "$out" | fields "$name")
	row "litmus run" "$name" "$1" "$2" "$3"
done
