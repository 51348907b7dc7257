#!/bin/sh
# Makes NAME.expected for each NAME.litmus of the folder given (default:
# this one) with herd7 7.58 under the corpus's linux-kernel.cfg: herd's
# States block and Observation line. A test herd cannot finish in 60 s
# is removed. Run:
#   H=/path/to/herd7 C=/path/to/shared/corpus sh gen.sh [DIR]
set -eu
: "${H:?herd7}" "${C:?corpus}"
D=$(cd "${1:-$(dirname "$0")}" && pwd)
for t in "$D"/*.litmus; do
	out=${t%.litmus}.expected
	[ -f "$out" ] && continue
	if ! (cd "$C/lkmm/tools/memory-model" && timeout 60 "$H" -conf linux-kernel.cfg "$t") > "$out.tmp" 2>&1 || ! grep -q '^Observation' "$out.tmp"; then
		rm -f "$out.tmp" "$t"
		echo "dropped $t"
		continue
	fi
	sed -n '/^States/,/^Observation/p' "$out.tmp" | grep -v '^Witnesses\|^Positive\|^Condition\|^Ok$\|^No$' > "$out"
	rm -f "$out.tmp"
done
