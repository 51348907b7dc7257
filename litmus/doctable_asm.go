package litmus

import (
	"sort"
	"strings"
)

// slotDocs spell each dialect's slot codes for the instruction tables of
// docs/language.md.
var slotDocs = map[Arch]map[string]string{
	ArchAArch64: {
		"W": "Wn", "X": "Xn", "R": "Rn", "I": "#imm", "IS": "#imm{,LSL #k}",
		"E": "op2", "RS": "Rm{,shift #k}", "XE": "Rm,extend{ #k}", "WE": "Wm,extend{ #k}",
		"L": "label", "C": "cond", "D": "option",
		"M": "mem", "MI": "memi", "MO": "[Xn{,#imm}]", "B": "[Xn]", "B0": "[Xn{,#0}]",
		"SYS": "sysreg", "ICOP": "ic_op", "DCOP": "dc_op", "TLBIOP": "tlbi_op",
	},
	ArchRISCV: {
		"r": "r", "i": "imm", "a": "off(r)", "a0": "0(r)", "l": "label", "s": "symbol", "f": "set",
	},
	ArchPPC: {
		"r": "r", "i": "imm", "c": "crF", "m": "mem", "md": "d(rA)", "x": "rA,rB", "l": "label",
	},
}

// instrTable renders the instruction table of an assembly dialect as a
// Markdown table: one row per set of operand forms, with the
// instructions that take exactly those forms.
func instrTable(a Arch) string {
	d := dialectOf(a)
	byForms := map[string][]string{}
	for m, sigs := range d.instrs {
		var forms []string
		for _, sig := range sigs {
			if sig == "" {
				forms = append(forms, "(none)")
				continue
			}
			var slots []string
			for _, code := range strings.Split(sig, ",") {
				slots = append(slots, slotDocs[a][code])
			}
			forms = append(forms, "`"+strings.Join(slots, ", ")+"`")
		}
		key := strings.Join(forms, " or ")
		byForms[key] = append(byForms[key], m)
	}
	type row struct{ forms, instrs string }
	var rows []row
	for forms, ms := range byForms {
		sort.Strings(ms)
		rows = append(rows, row{forms, strings.Join(ms, " ")})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].instrs < rows[j].instrs })
	var b strings.Builder
	b.WriteString("| instructions | operands |\n|---|---|\n")
	for _, r := range rows {
		b.WriteString("| " + r.instrs + " | " + r.forms + " |\n")
	}
	return b.String()
}
