#!/usr/bin/env bash
# Makes the execution pictures of docs/ from docs/img/pictures.txt: the DOT with
# `litmus explain --dot`, the PNG with Graphviz's dot (Debian: apt-get install graphviz).
# Run from the repository root: bash docs/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dot >/dev/null || { echo "docs/pictures.sh needs Graphviz's dot" >&2; exit 2; }
go build -o /tmp/litmus-pictures ./cmd/litmus
grep -v '^#' docs/img/pictures.txt | while IFS=: read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086 # the arguments are words
	/tmp/litmus-pictures explain $args --dot "docs/img/$name.dot" >/dev/null
	dot -Tpng -Gdpi=80 "docs/img/$name.dot" -o "docs/img/$name.png"
	echo "docs/img/$name.png"
done
