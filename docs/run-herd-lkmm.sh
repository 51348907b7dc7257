#!/bin/sh
# Times herd7 on the tests of the native LKMM engine's benchmarks
# (model/lkmm: BenchmarkSBRing, BenchmarkIRIW, BenchmarkISAChain,
# BenchmarkRCURing, BenchmarkCorpus), for docs/performance.md; the cat
# interpreter's rows (model/cat/interp BenchmarkLKMM) check the same
# SB-ring-N and IRIW-K tests (both from model/internal/shapes), so these
# are herd's side of those rows too. Usage, from the repository
# root, with the shared corpus beside it:
#   HERD=/path/to/herd7 sh docs/run-herd-lkmm.sh [TEST-NAME-PATTERN]
# It writes the generated tests with LITMUS_BENCH_DIR (one iteration of
# the Go benchmarks), then runs herd7 with the corpus's linux-kernel.cfg
# on each file whose name matches the pattern (grep -E; default: all but
# the 16-thread ring, which takes herd7 hours, and the 14-thread SB ring),
# printing one line per test: name, herd7 user+system seconds, herd7's
# Observation line. Last, the 126 tests of ../shared/corpus/lkmm, as
# BenchmarkCorpus checks them: in one herd7 process, each file copied
# with a name of its own (herd7 takes several files but checks a test name
# once, and 35 of the 126 repeat the name of another: the files as they
# are give 91 answers), and in one process per file (126 answered).
set -eu
: "${HERD:?path to herd7}"
pattern=${1:-'SB-ring-(8|10|12)\.|IRIW-[46]|ISA-chain|RCU-ring-GGRRRRGG(GGRR)?\.'}
lkmm=$(cd ../shared/corpus/lkmm/tools/memory-model && pwd)
dir=$(mktemp -d)
LITMUS_BENCH_DIR=$dir go test ./model/lkmm -run XXX -bench 'SBRing|IRIW|ISAChain|RCURing' -benchtime 1x -cpu 1 >/dev/null
# SB-ring-10 is the cat interpreter's row (BenchmarkLKMM/SBring10); the
# same generator.
LITMUS_BENCH_DIR=$dir go test ./model/cat/interp -run XXX -bench 'LKMM/SBring10/cat' -benchtime 1x -cpu 1 >/dev/null
cpu() { # user+system seconds of the command
	/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'
}
herd1() { # one herd7 run: its user+system seconds and its Observation line
	t=$(mktemp)
	obs=$(/usr/bin/time -f '%U %S' -o "$t" "$HERD" "$@" | grep '^Observation' || true)
	printf '%s %s\n' "$(awk '{print $1 + $2}' "$t")" "$obs"
	rm -f "$t"
}
for f in "$dir"/*.litmus; do
	basename "$f" | grep -Eq "$pattern" || continue
	printf '%s %s\n' "$(basename "$f" .litmus)" "$(cd "$lkmm" && herd1 -conf linux-kernel.cfg "$f")"
done
find "$(cd ../shared/corpus/lkmm && pwd)" -name '*.litmus' | sort > "$dir/corpus.txt"
mkdir "$dir/one"
i=0
while read -r f; do
	i=$((i + 1))
	awk -v n="$i" 'NR == 1 { $2 = $2 "-" n } { print }' "$f" > "$dir/one/$(printf '%03d' $i).litmus"
done < "$dir/corpus.txt"
ls "$dir"/one/*.litmus > "$dir/one.txt"
printf 'corpus(%s files, one process: %s answered) %s\n' "$(wc -l < "$dir/one.txt")" \
	"$(cd "$lkmm" && xargs "$HERD" -conf linux-kernel.cfg < "$dir/one.txt" 2>/dev/null | grep -c '^Observation')" \
	"$(cd "$lkmm" && cpu sh -c "xargs $HERD -conf linux-kernel.cfg < $dir/one.txt")"
printf 'corpus(%s files, a process each) %s\n' "$(wc -l < "$dir/corpus.txt")" \
	"$(cd "$lkmm" && cpu sh -c 'while read -r f; do '"$HERD"' -conf linux-kernel.cfg "$f" || true; done < '"$dir/corpus.txt")"
rm -rf "$dir"
