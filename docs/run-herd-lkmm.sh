#!/bin/sh
# Times herd7 on the tests of the native LKMM engine's benchmarks
# (model/lkmm: BenchmarkIRIW, BenchmarkISAChain, BenchmarkRCURing,
# BenchmarkCorpus), for docs/performance.md. Usage, from the repository
# root, with the shared corpus beside it:
#   HERD=/path/to/herd7 sh docs/run-herd-lkmm.sh [TEST-NAME-PATTERN]
# It writes the generated tests with LITMUS_BENCH_DIR (one iteration of
# the Go benchmarks), then runs herd7 with the corpus's linux-kernel.cfg
# on each file whose name matches the pattern (grep -E; default: all but
# the 16-thread ring, which takes herd7 hours), printing one line per
# test: name, herd7 user+system seconds, herd7's Observation line. Last,
# the 126 tests of ../shared/corpus/lkmm, as BenchmarkCorpus checks them:
# in one herd7 process (herd7 takes several files, but checks a test name
# once: 91 tests answered) and in one process per file (126 answered).
set -eu
: "${HERD:?path to herd7}"
pattern=${1:-'IRIW-[46]|ISA-chain|RCU-ring-GGRRRRGG(GGRR)?\.'}
lkmm=$(cd ../shared/corpus/lkmm/tools/memory-model && pwd)
dir=$(mktemp -d)
LITMUS_BENCH_DIR=$dir go test ./model/lkmm -run XXX -bench 'IRIW|ISAChain|RCURing' -benchtime 1x -cpu 1 >/dev/null
cpu() { # user+system seconds of the command
	/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'
}
for f in "$dir"/*.litmus; do
	basename "$f" | grep -Eq "$pattern" || continue
	obs=$(cd "$lkmm" && "$HERD" -conf linux-kernel.cfg "$f" | grep '^Observation')
	printf '%s %s %s\n' "$(basename "$f" .litmus)" "$(cd "$lkmm" && cpu "$HERD" -conf linux-kernel.cfg "$f")" "$obs"
done
find "$(cd ../shared/corpus/lkmm && pwd)" -name '*.litmus' | sort > "$dir/corpus.txt"
printf 'corpus(%s files, one process: %s answered) %s\n' "$(wc -l < "$dir/corpus.txt")" \
	"$(cd "$lkmm" && xargs "$HERD" -conf linux-kernel.cfg < "$dir/corpus.txt" 2>/dev/null | grep -c '^Observation')" \
	"$(cd "$lkmm" && cpu sh -c "xargs $HERD -conf linux-kernel.cfg < $dir/corpus.txt")"
printf 'corpus(%s files, a process each) %s\n' "$(wc -l < "$dir/corpus.txt")" \
	"$(cd "$lkmm" && cpu sh -c 'while read -r f; do '"$HERD"' -conf linux-kernel.cfg "$f" || true; done < '"$dir/corpus.txt")"
rm -rf "$dir"
