package model

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// archSites lists the ordering constructs of an AArch64, RISC-V or POWER
// test and how each is weakened:
//
//	AArch64  DMB/DSB/ISB removed; a full DMB/DSB also made its LD and
//	         ST forms; LDAR, LDAPR, LDAXR made LDR/LDXR; STLR, STLXR made
//	         STR/STXR; the A and L forms of CAS, SWP and LD<op>/ST<op>
//	         made relaxed
//	RISC-V   fences removed, a full fence also made fence.tso; .aq, .rl
//	         and .aq.rl annotations dropped
//	POWER    sync made lwsync and removed; lwsync, eieio, isync removed
func archSites(t *litmus.Test) []Site {
	var sites []Site
	for _, p := range t.Procs {
		for _, in := range p.Code {
			if in.Op == "" {
				continue
			}
			add := func(w Weakening, repl *litmus.Instr, partial bool) {
				into := "nothing"
				if repl != nil {
					into = litmus.InstrString(repl)
				}
				sites = append(sites, Site{Pos: t.File.Position(in.Pos()), Thread: p.ID, Text: litmus.InstrString(in),
					Weakening: w, Into: into, instr: in, instrRepl: repl, partial: partial})
			}
			switch t.Arch {
			case litmus.ArchAArch64:
				aarch64Sites(in, add)
			case litmus.ArchRISCV:
				riscvSites(in, add)
			case litmus.ArchPPC:
				ppcSites(in, add)
			}
		}
	}
	return sites
}

// withMnemonic returns a copy of in with another mnemonic.
func withMnemonic(in *litmus.Instr, m string) *litmus.Instr {
	c := *in
	c.Mnemonic = m
	c.Op = m
	if strings.ToLower(in.Op) == in.Op {
		c.Op = strings.ToLower(m)
	}
	return &c
}

func aarch64Sites(in *litmus.Instr, add func(Weakening, *litmus.Instr, bool)) {
	m := in.Mnemonic
	switch m {
	case "DMB", "DSB":
		opt := in.Args[0].Barrier
		if base := strings.TrimSuffix(strings.TrimSuffix(opt, "LD"), "ST"); base == opt {
			for _, weaker := range []string{"LD", "ST"} {
				w := opt + weaker
				if opt == "SY" {
					w = weaker
				}
				c := *in
				arg := *in.Args[0]
				arg.Barrier, arg.Text = w, w
				c.Args = []*litmus.Operand{&arg}
				add(DropOrdering, &c, true)
			}
		}
		add(RemoveFence, nil, false)
		return
	case "ISB":
		add(RemoveFence, nil, false)
		return
	}
	relax := map[string]string{
		"LDAR": "LDR", "LDARB": "LDRB", "LDARH": "LDRH", "LDAPR": "LDR", "LDAPRB": "LDRB", "LDAPRH": "LDRH",
		"STLR": "STR", "STLRB": "STRB", "STLRH": "STRH", "LDAXR": "LDXR", "LDAXRB": "LDXRB", "LDAXRH": "LDXRH",
		"STLXR": "STXR", "STLXRB": "STXRB", "STLXRH": "STXRH",
	}
	if r, ok := relax[m]; ok {
		add(DropOrdering, withMnemonic(in, r), false)
		return
	}
	// Atomics: CAS, SWP, LD<op>, ST<op> with A, L or AL.
	for _, prefix := range []string{"CAS", "SWP", "LDADD", "LDCLR", "LDEOR", "LDSET", "LDSMAX", "LDSMIN", "LDUMAX", "LDUMIN",
		"STADD", "STCLR", "STEOR", "STSET", "STSMAX", "STSMIN", "STUMAX", "STUMIN"} {
		if !strings.HasPrefix(m, prefix) || strings.HasPrefix(m, "CASP") {
			continue
		}
		rest := m[len(prefix):]
		size := ""
		if strings.HasSuffix(rest, "B") || strings.HasSuffix(rest, "H") {
			size, rest = rest[len(rest)-1:], rest[:len(rest)-1]
		}
		if rest == "A" || rest == "L" || rest == "AL" {
			add(DropOrdering, withMnemonic(in, prefix+size), false)
		}
		return
	}
}

func riscvSites(in *litmus.Instr, add func(Weakening, *litmus.Instr, bool)) {
	m := in.Mnemonic
	switch {
	case m == "fence" || m == "fence.tso":
		if m == "fence" && (len(in.Args) == 0 || in.Args[0].Fence == "rw" && in.Args[1].Fence == "rw") {
			c := *in
			c.Mnemonic, c.Op, c.Args = "fence.tso", "fence.tso", nil
			add(DropOrdering, &c, true)
		}
		add(RemoveFence, nil, false)
	case strings.HasSuffix(m, ".aq.rl"), strings.HasSuffix(m, ".aq"), strings.HasSuffix(m, ".rl"):
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, ".aq.rl"), ".aq"), ".rl")
		add(DropOrdering, withMnemonic(in, base), false)
	}
}

func ppcSites(in *litmus.Instr, add func(Weakening, *litmus.Instr, bool)) {
	switch in.Mnemonic {
	case "sync":
		add(DropOrdering, withMnemonic(in, "lwsync"), true)
		add(RemoveFence, nil, false)
	case "lwsync", "eieio", "isync":
		add(RemoveFence, nil, false)
	}
}

// nopFor returns the no-op mnemonic of an instruction's dialect.
func nopFor(in *litmus.Instr) string {
	if in.Mnemonic == "" {
		return ""
	}
	if strings.ToLower(in.Mnemonic) == in.Mnemonic {
		return "nop"
	}
	return "NOP"
}
