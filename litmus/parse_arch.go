package litmus

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// This file parses one cell of an AArch64, RISCV or PPC code table. The
// table itself (rows, columns, comments) is split by parseX86Procs, which
// all assembly dialects share; the per-architecture files (*_dialect.go)
// supply the registers, the mnemonic table and the operand shapes.
//
// An instruction is parsed in three steps, as herd's grammars do in one:
//
//  1. the mnemonic is normalised and looked up in the dialect's table,
//     which lists the operand signatures the instruction accepts;
//  2. the operand text is split at the commas outside brackets and each
//     piece is read on its own: a register, an immediate, a memory
//     operand, a shift ("LSL #2"), a name;
//  3. the pieces are matched against the signatures; a slot of a
//     signature may take two pieces, as "X2" and "LSL #2" make one
//     shifted-register operand.

// dialect is the instruction syntax of one architecture.
// sigTable maps normalised mnemonics to their operand signatures: a
// signature is a comma-separated list of slot codes, "" for none.
type sigTable map[string][]string

// add gives each of names the signatures sigs, alternatives separated by
// "|" ("|f,f": none, or two fence sets).
func (t sigTable) add(sigs string, names ...string) {
	for _, n := range names {
		t[n] = append(t[n], strings.Split(sigs, "|")...)
	}
}

type dialect struct {
	arch Arch
	// norm returns the normalised mnemonic of op as written.
	norm func(op string) string
	// instrs maps normalised mnemonics to their operand signatures: a
	// signature is a comma-separated list of slot codes, "" for none.
	instrs sigTable
	// unsupported names instructions herd knows that this checker
	// does not read, with the reason.
	unsupported func(mnemonic string) (string, bool)
	// piece reads one comma-separated operand piece.
	piece func(text string, off int) (piece, string)
	// slot tries to match slot code against the pieces at m.i.
	slot func(m *matcher, code string) bool
	// describe names a slot code for "expected X" messages, as far as
	// m has matched.
	describe func(m *matcher, code string) string
	// imm formats an immediate as the dialect writes it ("#1" or "1").
	immPrefix string
}

// ArchRegister parses a register name of an AArch64, RISCV or PPC test
// as the init block and the final section write it after "N:" ("X1",
// "W0", "a0", "r2") and returns the register with its canonical name
// (X1, x10, r2). It reports false for other names and architectures.
func ArchRegister(a Arch, name string) (Register, bool) {
	switch a {
	case ArchAArch64:
		return aarch64Reg(name)
	case ArchRISCV:
		return riscvReg(name)
	case ArchPPC:
		if r, ok := ppcReg(name); ok {
			return r, true
		}
		return ppcCR(name)
	}
	return Register{}, false
}

// dialectOf returns the dialect of an assembly architecture other than
// X86, or nil.
func dialectOf(a Arch) *dialect {
	switch a {
	case ArchAArch64:
		return aarch64Dialect
	case ArchRISCV:
		return riscvDialect
	case ArchPPC:
		return ppcDialect
	}
	return nil
}

// pieceKind says what an operand piece is.
type pieceKind int

const (
	pReg   pieceKind = iota // a register
	pImm                    // an integer, with its '#' for AArch64
	pMem                    // [X1,#8], [X1,#8]!, 8(x5), (x5), 0(r2)
	pName                   // any other identifier: a label, a condition, a fence set...
	pShift                  // AArch64 "LSL #2", "SXTW", "UXTW #1"
	pDot                    // AArch64 ".+4": a branch offset from this instruction
)

// piece is one comma-separated part of an instruction's operand text.
type piece struct {
	kind     pieceKind
	off, end int // byte offsets of the piece in the source
	text     string
	reg      Register
	imm      int64
	name     string // pName as written; pShift upper case
	hasAmt   bool   // pShift: an amount was written
	mem      MemRef
	preIndex bool // pMem: written with a trailing '!'
}

// cutLabel cuts the label of n bytes and its ':' from the start of a
// cell's text at offset off, returning the label as an Instr and the
// text after it, blanks skipped, with its offset.
func cutLabel(text string, off, n int) (*Instr, string, int) {
	label := &Instr{InstrPos: Pos(off + 1), Label: text[:n], EndPos: Pos(off + n + 2)}
	rest := text[n+1:]
	trimmed := strings.TrimLeft(rest, " \t")
	return label, trimmed, off + n + 1 + len(rest) - len(trimmed)
}

// parseArchCell parses one cell of an AArch64, RISCV or PPC column
//
//	Cell  = { Label ":" } [ Instr ] .
//	Instr = Mnemonic [ Operand { "," Operand } ] .
func (p *parser) parseArchCell(d *dialect, c cell) []*Instr {
	var out []*Instr
	text, off := c.text, c.off
	for {
		n := labelLen(text)
		if n == 0 || n >= len(text) || text[n] != ':' {
			break
		}
		var label *Instr
		label, text, off = cutLabel(text, off, n)
		out = append(out, label)
		if text == "" {
			return out
		}
	}
	n := identLen(text)
	if n == 0 {
		p.errorAt(off, "expected instruction, found "+quoteCell(text))
		return out
	}
	in := &Instr{InstrPos: Pos(off + 1), Op: text[:n], EndPos: Pos(off + len(text) + 1)}
	rest := text[n:]
	if rest != "" && !isSpace(rest[0]) {
		p.errorAt(off+n, "expected space after "+in.Op+", found "+quoteCell(rest[:1]))
		return out
	}
	in.Mnemonic = d.norm(in.Op)
	sigs, ok := d.instrs[in.Mnemonic]
	if !ok {
		if why, ok := d.unsupported(in.Mnemonic); ok {
			p.errorAt(off, "unsupported "+string(d.arch)+" instruction "+in.Op+" ("+why+")")
		} else {
			p.errorAt(off, "unknown "+string(d.arch)+" instruction "+in.Op)
		}
		return out
	}
	var pieces []piece
	if strings.TrimSpace(rest) != "" {
		for _, a := range splitOperands(rest, off+n) {
			if a.text == "" {
				p.errorAt(a.off, "expected operand, found "+describeNext(rest, a.off-off-n))
				return out
			}
			pc, msg := d.piece(a.text, a.off)
			if msg != "" {
				if big := overflowingInt(a.text); big != "" {
					msg = "integer " + big + " out of range (beyond 64 bits)"
				}
				p.errorAt(a.off, msg+" in operand "+quoteCell(a.text))
				return out
			}
			pieces = append(pieces, pc)
		}
	}
	args, errOff, msg := matchSigs(p, d, in, sigs, pieces)
	if msg != "" {
		p.errorAt(errOff, msg)
		return out
	}
	in.Args = args
	if msg := immRangeError(d.arch, in); msg != "" {
		p.errorAt(off, msg)
		return out
	}
	return append(out, in)
}

// herd7's lexers read the integers of AArch64, RISCV and PPC code as
// OCaml's int, 63 bits on a 64-bit machine (int_of_string fails beyond):
// "MOV X14,#9223372036854775807" is not a test herd7 reads. Only
// RISC-V's li takes a 64-bit integer (Int64.of_string in herd's
// RISCVParser.mly). herd checks no narrower range per instruction (an
// AArch64 MOV or ADD immediate that no encoding holds is still read as
// its value), and neither does this parser.
const (
	herdIntMin = -1 << 62
	herdIntMax = 1<<62 - 1
)

// immRangeError returns a message naming the operand of in whose
// integer herd7 cannot read, or "".
func immRangeError(a Arch, in *Instr) string {
	if a == ArchRISCV && in.Mnemonic == "li" {
		return "" // a full 64-bit integer
	}
	for _, o := range in.Args {
		vals := []int64{o.Imm, o.Amount}
		if o.Mem != nil {
			vals = append(vals, o.Mem.Offset, o.Mem.Amount)
		}
		for _, v := range vals {
			if v < herdIntMin || v > herdIntMax {
				return fmt.Sprintf("%s: integer %d out of range in operand %s (herd7 reads %s integers as 63-bit, -2^62 to 2^62-1)", in.Op, v, quoteCell(o.Text), a)
			}
		}
	}
	return ""
}

// overflowingInt returns the first integer literal in s that does not
// fit in 64 bits, or "".
func overflowingInt(s string) string {
	for _, lit := range intLitRE.FindAllString(s, -1) {
		t := strings.TrimLeft(lit, "+-")
		base := 10
		if len(t) > 2 && (t[1] == 'x' || t[1] == 'X') {
			base, t = 16, t[2:]
		}
		if v, err := strconv.ParseUint(t, base, 64); err != nil || v > 1<<63 || v == 1<<63 && lit[0] != '-' {
			return lit
		}
	}
	return ""
}

var intLitRE = regexp.MustCompile(`[-+]?(0[xX][0-9a-fA-F]+|[0-9]+)`)

// describeNext names the text after an empty operand for messages.
func describeNext(s string, i int) string {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		return "end of instruction"
	}
	return "'" + s[i:i+1] + "'"
}

// labelLen returns the length of the label name at the start of s: as
// herd's lexers read names, a letter, '_' or '.' then letters, digits,
// '_', '.', '$' and '/'.
func labelLen(s string) int {
	if s == "" || !isLetter(s[0]) && s[0] != '.' {
		return 0
	}
	n := 1
	for n < len(s) && (isLetter(s[n]) || isDigit(s[n]) || strings.IndexByte("._$/", s[n]) >= 0) {
		n++
	}
	return n
}

// matcher matches operand pieces against one signature.
type matcher struct {
	p      *parser
	d      *dialect
	in     *Instr
	ps     []piece
	i      int        // next piece
	out    []*Operand // operands matched so far
	width  int        // AArch64: the width that "R" slots share, 0 until bound
	errMsg string     // a slot's own complaint about a piece it recognised
}

// matchSigs matches pieces against each signature of the instruction in
// turn and returns the operands of the first that matches. Otherwise it
// reports, at the piece where the best signature failed, what that
// signature (and any other failing there) expected.
func matchSigs(p *parser, d *dialect, in *Instr, sigs []string, pieces []piece) ([]*Operand, int, string) {
	best := -1
	var wants []string
	bestMsg := ""
	for _, sig := range sigs {
		m := &matcher{p: p, d: d, in: in, ps: pieces}
		var codes []string
		if sig != "" {
			codes = strings.Split(sig, ",")
		}
		failed, want := false, ""
		for _, code := range codes {
			if !d.slot(m, code) {
				failed, want = true, d.describe(m, code)
				break
			}
		}
		if !failed && m.i == len(pieces) {
			return m.out, 0, ""
		}
		if !failed {
			want = "end of instruction"
		}
		switch {
		case m.i > best:
			best, wants, bestMsg = m.i, []string{want}, m.errMsg
		case m.i == best:
			if !contains(wants, want) {
				wants = append(wants, want)
			}
			if bestMsg == "" {
				bestMsg = m.errMsg
			}
		}
	}
	if best < len(pieces) && bestMsg != "" {
		return nil, pieces[best].off, bestMsg
	}
	sort.SliceStable(wants, func(i, j int) bool { return wants[i] == "end of instruction" && wants[j] != "end of instruction" })
	msg := "expected " + joinOr(wants)
	if best >= len(pieces) {
		off := int(in.EndPos) - 1
		return nil, off, in.Op + ": " + msg + ", found end of instruction"
	}
	return nil, pieces[best].off, msg + ", found '" + pieces[best].text + "'"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// joinOr writes "a", "a or b", "a, b or c".
func joinOr(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// peek returns the piece at m.i+k, or nil.
func (m *matcher) peek(k int) *piece {
	if m.i+k < len(m.ps) {
		return &m.ps[m.i+k]
	}
	return nil
}

// emitReg emits pc's register as one operand when ok, and reports
// whether it did: a slot that takes a register.
func (m *matcher) emitReg(ok bool, pc *piece) bool {
	return ok && m.emit(&Operand{Kind: OpdReg, R: regPtr(pc.reg)}, 1)
}

// emitImm emits pc's integer as one operand when pc is one, and reports
// whether it did: a slot that takes an immediate.
func (m *matcher) emitImm(pc *piece) bool {
	return pc.kind == pImm && m.emit(&Operand{Kind: OpdImm, Imm: pc.imm}, 1)
}

// emit appends an operand built from the pieces m.i .. m.i+n-1 and
// advances past them.
func (m *matcher) emit(o *Operand, n int) bool {
	first, last := m.ps[m.i], m.ps[m.i+n-1]
	o.OpdPos, o.EndPos = Pos(first.off+1), Pos(last.end+1)
	if o.R != nil {
		o.Reg = o.R.Text
	}
	o.Text = operandText(m.d, o)
	m.out = append(m.out, o)
	m.i += n
	return true
}

// complain records a slot's message about the piece at m.i and fails.
func (m *matcher) complain(msg string) bool {
	m.errMsg = msg
	return false
}

// operandText is the canonical spelling of an AArch64, RISCV or PPC
// operand, which the printer writes.
func operandText(d *dialect, o *Operand) string {
	switch o.Kind {
	case OpdReg:
		return o.R.Text
	case OpdImm:
		s := d.immPrefix + strconv.FormatInt(o.Imm, 10)
		if o.Shift != "" {
			s += "," + o.Shift + " " + d.immPrefix + strconv.FormatInt(o.Amount, 10)
		}
		return s
	case OpdShiftedReg, OpdExtendedReg:
		s := o.R.Text + "," + o.Shift
		if o.Kind == OpdShiftedReg || o.Amount != 0 {
			s += " #" + strconv.FormatInt(o.Amount, 10)
		}
		return s
	case OpdMem:
		return memText(d.arch, o.Mem)
	case OpdLabel:
		if o.Label == "." {
			if o.Imm < 0 {
				return "." + strconv.FormatInt(o.Imm, 10)
			}
			return ".+" + strconv.FormatInt(o.Imm, 10)
		}
		return o.Label
	case OpdCond:
		return o.Cond
	case OpdBarrier:
		return o.Barrier
	case OpdFenceSet:
		return o.Fence
	case OpdSys:
		return o.Sys
	case OpdSym:
		return o.Sym
	}
	return ""
}

// memText writes a memory operand in its architecture's syntax.
func memText(a Arch, m *MemRef) string {
	off := strconv.FormatInt(m.Offset, 10)
	switch a {
	case ArchAArch64:
		s := "[" + m.Base.Text
		switch {
		case m.Index != nil:
			s += "," + m.Index.Text
			if m.Extend != "" {
				s += "," + m.Extend
				if m.Amount != 0 || m.Extend == "LSL" {
					s += " #" + strconv.FormatInt(m.Amount, 10)
				}
			}
		case m.Mode == AddrPostIndex:
			return s + "],#" + off
		case m.Offset != 0 || m.Mode == AddrPreIndex:
			s += ",#" + off
		}
		s += "]"
		if m.Mode == AddrPreIndex {
			s += "!"
		}
		return s
	case ArchPPC:
		if m.Index != nil {
			return m.Base.Text + "," + m.Index.Text
		}
	}
	return off + "(" + m.Base.Text + ")"
}

// parseImmText reads an integer as the assembly dialects write it:
// decimal or 0x hexadecimal, with an optional sign, from -2^63 to
// 2^63-1. A value beyond is not read (it used to wrap: 2^64-1 was -1).
func parseImmText(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	if s == "" || !isDigit(s[0]) {
		return 0, false
	}
	base := 10
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base, s = 16, s[2:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil || u > 1<<63 || u == 1<<63 && !neg {
		return 0, false
	}
	v := int64(u)
	if neg {
		v = -v
	}
	return v, true
}

// isNameText reports whether s is a name as herd's assembly lexers read
// one: a letter or '_' and then letters, digits, '_' and '.'.
func isNameText(s string) bool {
	return s != "" && (isLetter(s[0])) && identLen(s) == len(s)
}

// parenMem reads the RISCV and PPC memory operand "off(reg)" or "(reg)";
// reg parses a register name. ok is false when s has no parenthesis.
func parenMem(s string, off int, reg func(string) (Register, bool)) (pc piece, msg string, ok bool) {
	lp := strings.IndexByte(s, '(')
	if lp < 0 {
		return piece{}, "", false
	}
	if !strings.HasSuffix(s, ")") {
		return piece{}, "expected )", true
	}
	pc = piece{kind: pMem, off: off, end: off + len(s), text: s}
	if d := strings.TrimSpace(s[:lp]); d != "" {
		v, ok := parseImmText(d)
		if !ok {
			return piece{}, "expected offset", true
		}
		pc.mem.Offset = v
	}
	r, ok := reg(strings.TrimSpace(s[lp+1 : len(s)-1]))
	if !ok {
		return piece{}, "expected base register", true
	}
	pc.mem.Base = r
	return pc, "", true
}
