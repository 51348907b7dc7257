package harness

import (
	"fmt"

	"github.com/litmus-dev/litmus/model/kmap"
)

// labelAsm is what expandRow needs of an assembler: fresh local labels,
// bound at the current offset.
type labelAsm interface {
	newLabel() int
	bind(l int)
}

// expandRow assembles a kmap row on a, the one walk of a row that both
// architectures share: each local label definition gets a fresh asm
// label ("Nb" is the last definition of N before the branch, "Nf" the
// next one after), each instruction's operands are parsed by parse, and
// emit encodes the instruction with its branch target (and whether the
// branch goes backward).
func expandRow[O any](a labelAsm, insns []kmap.Insn, parse func(string) (O, error), emit func(in kmap.Insn, ops []O, target int, back bool) error) error {
	defs := make([]int, len(insns))
	for i, in := range insns {
		if in.Label != "" {
			defs[i] = a.newLabel()
		}
	}
	for i, in := range insns {
		if in.Label != "" {
			a.bind(defs[i])
		}
		if in.Op == "" {
			continue
		}
		var ops []O
		target, back := 0, false
		for _, arg := range in.Args {
			if kmap.IsLabelRef(arg) {
				j, b, err := kmap.LabelTarget(insns, i, arg)
				if err != nil {
					return err
				}
				target, back = defs[j], b
				continue
			}
			o, err := parse(arg)
			if err != nil {
				return fmt.Errorf("%s: %v", in, err)
			}
			ops = append(ops, o)
		}
		if err := emit(in, ops, target, back); err != nil {
			return err
		}
	}
	return nil
}

// asmLabel returns the asm label of cir label l, a fresh one of a's the
// first time, recorded in labels.
func asmLabel(labels map[int]int, a labelAsm, l int) int {
	if al, ok := labels[l]; ok {
		return al
	}
	al := a.newLabel()
	labels[l] = al
	return al
}
