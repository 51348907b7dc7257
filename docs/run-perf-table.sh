#!/bin/sh
# The figures of the table "litmus against herd7, one sitting" in
# docs/performance.md, in one run: each row's Go benchmark (-cpu 1, CPU
# time per operation, -count 6, medians by benchstat), then herd7's side
# of every row (docs/run-herd-lkmm.sh, docs/run-herd-arch.sh). Usage,
# from the repository root, with the shared corpus beside it:
#   HERD=/path/to/herd7 sh docs/run-perf-table.sh [OUT-DIR]
# OUT-DIR (default: a new temporary directory) receives bench.txt (the
# benchmarks' raw output), benchstat.txt and herd.txt.
set -eu
: "${HERD:?path to herd7}"
out=${1:-$(mktemp -d)}
mkdir -p "$out"
n=${COUNT:-6}
uptime > "$out/uptime.txt"
{
	go test ./model/arch -run XXX -bench 'X86SBRing/N=12/op-tso$|Arch/(aarch64|riscv|ppc)/SBring10$' -benchtime 5x -count "$n" -cpu 1
	go test ./model/lkmm -run XXX -bench 'SBRing/N=12$|IRIW/readers=6$|ISAChain/N=8$|RCURing/N=12$|^BenchmarkCorpus$' -benchtime 5x -count "$n" -cpu 1
	go test ./model/cat/interp -run XXX -bench 'LKMM/(SBring(8|10|12)|IRIW4|corpus)/cat$' -benchtime 5x -count "$n" -cpu 1
} > "$out/bench.txt"
uptime >> "$out/uptime.txt"
go run golang.org/x/perf/cmd/benchstat@latest "$out/bench.txt" > "$out/benchstat.txt"
{
	sh docs/run-herd-lkmm.sh 'SB-ring-(8|10|12)\.|IRIW-[46]\.|ISA-chain-8|RCU-ring-GGRRRRGGGGRR\.'
	sh docs/run-herd-arch.sh
} > "$out/herd.txt"
uptime >> "$out/uptime.txt"
cat "$out/benchstat.txt" "$out/herd.txt" "$out/uptime.txt"
echo "results in $out"
