package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/model/kmap"
)

// The tables of docs/semantics.md "Kernel C primitives on each
// architecture" are model/kmap's rows, printed. Each sits between
//
//	<!-- kmap ARCH -->
//	...
//	<!-- end kmap ARCH -->
//
// and TestKmapTablesAreKmap fails when one differs from what kmapTable
// prints for the architecture's rows now (-update rewrites them), so the
// table a reviewer audits is the mapping model/kcomp compiles with and
// `litmus run` assembles.

const kmapDoc = "../../docs/semantics.md"

var kmapBlockRE = regexp.MustCompile(`(?s)<!-- kmap ([a-z0-9-]+) -->\n(.*?)<!-- end kmap ([a-z0-9-]+) -->\n`)

func TestKmapTablesAreKmap(t *testing.T) {
	src, err := os.ReadFile(kmapDoc)
	require.NoError(t, err)
	text := string(src)
	known := map[string]bool{}
	for _, a := range kmap.Arches() {
		known[string(a)] = true
	}
	seen := map[string]bool{}
	var stale []string
	out := kmapBlockRE.ReplaceAllStringFunc(text, func(block string) string {
		m := kmapBlockRE.FindStringSubmatch(block)
		a := m[1]
		require.Equal(t, a, m[3], "%s: a kmap block for %s ends with the marker of %s", kmapDoc, a, m[3])
		require.True(t, known[a], "%s: a kmap block names %s, which is not an architecture of model/kmap", kmapDoc, a)
		require.False(t, seen[a], "%s: two kmap blocks for %s", kmapDoc, a)
		seen[a] = true
		want := kmapTable(kmap.Arch(a))
		if m[2] != want {
			stale = append(stale, a)
			if !*update {
				t.Errorf("%s: the table of %s differs from model/kmap's rows (-want +got; go test ./cmd/litmus -run TestKmapTablesAreKmap -update rewrites it):\n%s", kmapDoc, a, lineDiff(m[2], want))
			}
		}
		return "<!-- kmap " + a + " -->\n" + want + "<!-- end kmap " + a + " -->\n"
	})
	for _, a := range kmap.Arches() {
		require.True(t, seen[string(a)], "%s has no table for %s (a block <!-- kmap %s --> ... <!-- end kmap %s -->)", kmapDoc, a, a, a)
	}
	if *update && len(stale) > 0 {
		require.NoError(t, os.WriteFile(kmapDoc, []byte(out), 0o644))
	}
}

// kmapTable prints the rows and the gaps of architecture a: one table
// row per kmap row, in kmap.Rows' order, then the primitives the mapping
// leaves out.
func kmapTable(a kmap.Arch) string {
	var b strings.Builder
	rows := kmap.Rows(a)
	fmt.Fprintf(&b, "%d rows.\n\n", len(rows))
	b.WriteString("| primitive | instructions | read from | note |\n|---|---|---|---|\n")
	for _, r := range rows {
		code := "(none: a compiler barrier only)"
		if r.Code != "" {
			var ins []string
			for _, in := range strings.Split(r.Code, ";") {
				ins = append(ins, "`"+mdCell(strings.TrimSpace(in))+"`")
			}
			code = strings.Join(ins, "<br>")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", mdCell(r.Prim), code, mdCell(r.Src), mdCell(r.Note))
	}
	if gaps := kmap.Gaps(a); len(gaps) > 0 {
		b.WriteString("\nNot mapped (model/kcomp refuses a test that uses one, saying why):\n\n")
		for _, g := range gaps {
			fmt.Fprintf(&b, "- `%s`: %s\n", g.Prim, mdCell(g.Why))
		}
	}
	return b.String()
}

// mdCell makes s safe inside a Markdown table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// TestKmapTableCell: a row's text cannot break the table it is printed
// in.
func TestKmapTableCell(t *testing.T) {
	require.Equal(t, `a \| b c`, mdCell("a | b\nc"))
	for _, a := range kmap.Arches() {
		tab := kmapTable(a)
		lines := strings.Split(tab, "\n")
		// "N rows.", "", header, rule, then one line per row.
		rows := kmap.Rows(a)
		require.Greater(t, len(lines), 4+len(rows))
		for i, r := range rows {
			l := lines[4+i]
			require.True(t, strings.HasPrefix(l, "| `"+r.Prim+"` |"), "%s: line %q is not the row of %s", a, l, r.Prim)
			require.Equal(t, 5, strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"), "%s: the row of %s is not four cells: %q", a, r.Prim, l)
		}
	}
}
