#!/bin/sh
# Times herd7 on the tests of the LKMM benchmarks (BenchmarkLKMM in
# model/cat/interp: the native engine and linux-kernel.cat run by the
# interpreter), for docs/performance.md. Usage, from the repository root,
# with the shared corpus beside it:
#   HERD=/path/to/herd7 sh docs/run-herd-lkmm-bench.sh
# It writes the generated tests with LITMUS_BENCH_DIR, runs the Go
# benchmarks once (wall and CPU time per test), then herd7 with the
# corpus's linux-kernel.cfg on the same files, printing one line per test:
# test, herd7 user+system seconds, herd7's Observation line; the tests under
# ../shared/corpus/lkmm are timed as a whole, as the benchmark's corpus rows are.
set -eu
: "${HERD:?path to herd7}"
lkmm=$(cd ../shared/corpus/lkmm/tools/memory-model && pwd)
dir=$(mktemp -d)
LITMUS_BENCH_DIR=$dir go test ./model/cat/interp -run XXX -bench 'LKMM/' -benchtime 1x
cpu() { # user+system seconds of the command
	/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'
}
for f in "$dir"/*.litmus; do
	obs=$(cd "$lkmm" && "$HERD" -conf linux-kernel.cfg "$f" | grep '^Observation')
	printf '%s %s %s\n' "$(basename "$f" .litmus)" "$(cd "$lkmm" && cpu "$HERD" -conf linux-kernel.cfg "$f")" "$obs"
done
find "$(cd ../shared/corpus/lkmm && pwd)" -name '*.litmus' | sort > "$dir/corpus.txt"
printf 'corpus(%s tests) %s\n' "$(wc -l < "$dir/corpus.txt")" \
	"$(cd "$lkmm" && cpu sh -c 'while read -r f; do '"$HERD"' -conf linux-kernel.cfg "$f" || true; done < '"$dir/corpus.txt")"
rm -rf "$dir"
