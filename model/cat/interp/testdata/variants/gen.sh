#!/bin/sh
# Makes NAME.expected for each variant of variants.txt with herd7 7.58
# (herd7 -conf linux-kernel.cfg on each corpus C test, in a copy of the
# corpus's tools/memory-model with the edit applied). Run from this folder:
#   H=/path/to/herd7 C=/path/to/shared/corpus sh gen.sh
set -eu
: "${H:?herd7}" "${C:?corpus}"
grep -v '^#' variants.txt | while IFS= read -r line; do
	name=${line%%:*}
	rest=${line#*: }
	old=${rest%% => *}
	new=${rest#* => }
	dir=$(mktemp -d)
	cp "$C"/lkmm/tools/memory-model/linux-kernel.* "$C"/lkmm/tools/memory-model/lock.cat "$dir"/
	OLD="$old" NEW="$new" python3 -c 'import os,sys; p=sys.argv[1]; s=open(p).read(); o=os.environ["OLD"]; assert o in s, o; open(p,"w").write(s.replace(o, os.environ["NEW"]))' "$dir/linux-kernel.cat"
	out="$name.expected"
	: > "$out"
	find "$C/lkmm" -name '*.litmus' | sort | while read -r t; do
		rel=${t#"$C"/}
		echo "== $rel" >> "$out"
		(cd "$dir" && timeout 120 "$H" -conf linux-kernel.cfg "$t" 2>&1) | sed -n '/^States/,/^Observation/p' | grep -v '^Witnesses\|^Positive\|^Flag\|^Condition\|^Ok$\|^No$' >> "$out" || true
	done
	rm -rf "$dir"
done
