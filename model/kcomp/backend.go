package kcomp

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
)

// backend is one dialect's registers and instructions for C's arithmetic
// and control flow; the primitives come from the kmap rows.
type backend interface {
	// pool lists the registers for C registers, temporaries and the
	// locations' addresses, in the order they are given out.
	pool() []string
	// args are the registers a row's {v}, {w} and {mask} take when the
	// C code passes a constant.
	args() [3]string
	// tmp are two scratch registers for C arithmetic on constants.
	tmp() [2]string
	// discard receives the value of a primitive whose result is unused.
	discard() string
	// flag is the register a thread sets when a retry ends its path.
	flag() string

	li(d string, v int64) []string
	mov(d, s string) string
	// ext sets d to the low k.Bits of s, sign- or zero-extended: a
	// value converted to a C type narrower than 64 bits (model/ctype),
	// as the kernel's compilers convert it (sxtw, extsw, sext.w; the
	// extends herd's dialects lack, sxth, uxtb, extsh, are the shift or
	// mask sequences they stand for).
	ext(d, s string, k ctype.Kind) []string
	unary(op, d, x string) []string
	binary(op, d, x, y string) ([]string, error)
	branchZ(x, label string) []string
	cmpBranch(op, x, y, label string) []string
	jump(label string) string
	// format writes a row's instruction in the dialect's syntax.
	format(op string, args []string) string
}

var backends = map[litmus.Arch]backend{
	litmus.ArchAArch64: aarch64{},
	litmus.ArchRISCV:   riscv{},
	litmus.ArchPPC:     ppc{},
}

func regs(prefix string, ranges ...[2]int) []string {
	var out []string
	for _, r := range ranges {
		for i := r[0]; i <= r[1]; i++ {
			out = append(out, fmt.Sprintf("%s%d", prefix, i))
		}
	}
	return out
}

// aarch64: the rows' scratch is X14-X17; X10-X12 carry constant operands
// to rows, X13 takes discarded results, X27 is the retry flag.
type aarch64 struct{}

func (aarch64) pool() []string         { return regs("X", [2]int{0, 9}, [2]int{18, 26}) }
func (aarch64) args() [3]string        { return [3]string{"X10", "X11", "X12"} }
func (aarch64) tmp() [2]string         { return [2]string{"X14", "X15"} }
func (aarch64) discard() string        { return "X13" }
func (aarch64) flag() string           { return "X27" }
func (aarch64) mov(d, s string) string { return "MOV " + d + "," + s }

func (aarch64) jump(l string) string { return "B " + l }

func (aarch64) ext(d, s string, k ctype.Kind) []string {
	switch {
	case k.Signed && k.Bits == 32:
		return []string{"SXTW " + d + ",W" + strings.TrimPrefix(s, "X")}
	case k.Signed:
		// SXTB and SXTH are SBFM, which herd's AArch64 lacks: the
		// shift pair is the same bit-field move.
		sh := 64 - int(k.Bits)
		return []string{fmt.Sprintf("LSL %s,%s,#%d", d, s, sh), fmt.Sprintf("ASR %s,%s,#%d", d, d, sh)}
	}
	return []string{fmt.Sprintf("AND %s,%s,#%d", d, s, uint64(1)<<k.Bits-1)}
}

// li sets d to v: one MOV when v is a MOVZ or MOVN immediate (one
// 16-bit chunk, of v or of its complement: herd's AArch64 refuses any
// other MOV immediate as illegal, 98304 and 2^31-1 included, and reads
// integers as 63-bit). Any other constant is built as a compiler builds
// it, a chunk at a time (herd's AArch64 has no MOVK, and its MOVZ
// takes the top chunk only): the top chunk's MOVZ, each other nonzero
// chunk's MOV ORRed in through X17, and for a negative v the whole done
// for ^v then inverted with MVN.
func (aarch64) li(d string, v int64) []string {
	u := uint64(v)
	for sh := uint(0); sh < 64; sh += 16 {
		if (u&^(0xffff<<sh) == 0 || ^u&^(0xffff<<sh) == 0) && v >= -1<<62 && v < 1<<62 {
			return []string{fmt.Sprintf("MOV %s,#%d", d, v)}
		}
	}
	if v < 0 {
		u = ^u
	}
	out := []string{fmt.Sprintf("MOVZ %s,#%d,LSL #48", d, u>>48)}
	for sh := 32; sh >= 0; sh -= 16 {
		if c := u >> uint(sh) & 0xffff; c != 0 {
			out = append(out, fmt.Sprintf("MOV X17,#%d", c<<uint(sh)), "ORR "+d+","+d+",X17")
		}
	}
	if v < 0 {
		out = append(out, "MVN "+d+","+d)
	}
	return out
}

var a64Cond = map[string]string{"==": "EQ", "!=": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}

func (aarch64) unary(op, d, x string) []string {
	switch op {
	case "-":
		return []string{"NEG " + d + "," + x}
	case "~":
		return []string{"MVN " + d + "," + x}
	}
	return []string{"CMP " + x + ",#0", "CSET " + d + ",EQ"}
}

func (aarch64) binary(op, d, x, y string) ([]string, error) {
	if op == ">=" {
		// herd 7.58 reads CSET d,GE as CSINC d,ZR,ZR,inverse(GE) and
		// its inverse_cond maps GE to GT (lib/AArch64Base.ml), so that
		// CSET d,GE computes <=; model/arch follows herd. Not less
		// than is >= on every reading.
		return []string{"CMP " + x + "," + y, "CSET " + d + ",LT", "EOR " + d + "," + d + ",#1"}, nil
	}
	if c, ok := a64Cond[op]; ok {
		return []string{"CMP " + x + "," + y, "CSET " + d + "," + c}, nil
	}
	switch op {
	case "&&", "||":
		alu := "AND"
		if op == "||" {
			alu = "ORR"
		}
		return []string{"CMP " + x + ",#0", "CSET X16,NE", "CMP " + y + ",#0", "CSET X17,NE", alu + " " + d + ",X16,X17"}, nil
	}
	alu, ok := map[string]string{"+": "ADD", "-": "SUB", "&": "AND", "|": "ORR", "^": "EOR", "*": "MUL", "<<": "LSL", ">>": "ASR"}[op]
	if !ok {
		return nil, fmt.Errorf("operator %s", op)
	}
	return []string{alu + " " + d + "," + x + "," + y}, nil
}

func (aarch64) branchZ(x, l string) []string { return []string{"CBZ " + x + "," + l} }

func (aarch64) cmpBranch(op, x, y, l string) []string {
	return []string{"CMP " + x + "," + y, "B." + a64Cond[op] + " " + l}
}

func (aarch64) format(op string, args []string) string {
	s := strings.ToUpper(op)
	if len(args) > 0 {
		s += " " + strings.ToUpper(strings.Join(args, ","))
	}
	return s
}

// riscv: the rows' scratch is x28-x31; x23-x25 carry constant operands,
// x26 takes discarded results, x27 is the retry flag. Comparisons that
// give a value use slt, or and xori, which herd 7.58 executes.
type riscv struct{}

func (riscv) pool() []string         { return regs("x", [2]int{5, 22}) }
func (riscv) args() [3]string        { return [3]string{"x23", "x24", "x25"} }
func (riscv) tmp() [2]string         { return [2]string{"x28", "x29"} }
func (riscv) discard() string        { return "x26" }
func (riscv) flag() string           { return "x27" }
func (riscv) mov(d, s string) string { return "mv " + d + "," + s }

func (riscv) jump(l string) string { return "j " + l }

// ext: sext.w for an int; otherwise the slli/srli pair that zero-extends,
// then for a signed type the xor and subtract of the sign bit (herd's
// RISCV has no srai).
func (riscv) ext(d, s string, k ctype.Kind) []string {
	if k.Signed && k.Bits == 32 {
		return []string{"sext.w " + d + "," + s}
	}
	sh := 64 - int(k.Bits)
	out := []string{fmt.Sprintf("slli %s,%s,%d", d, s, sh), fmt.Sprintf("srli %s,%s,%d", d, d, sh)}
	switch {
	case !k.Signed:
	case k.Bits == 8:
		out = append(out, "xori "+d+","+d+",128", "addi "+d+","+d+",-128")
	default: // 16: the sign bit is beyond xori's 12 bits
		out = append(out, "lui x30,8", "xor "+d+","+d+",x30", "sub "+d+","+d+",x30")
	}
	return out
}

// li sets d to v: li is the assembler's pseudo-instruction for any
// constant, but herd reads its immediate as 63-bit (-2^62 to 2^62-1);
// beyond, the high and low words are set and joined through x30.
func (riscv) li(d string, v int64) []string {
	if v >= -1<<62 && v < 1<<62 {
		return []string{fmt.Sprintf("li %s,%d", d, v)}
	}
	return []string{fmt.Sprintf("li %s,%d", d, v>>32), "slli " + d + "," + d + ",32",
		fmt.Sprintf("li x30,%d", uint32(v)), "or " + d + "," + d + ",x30"}
}

// rvNonZeroOf sets d to x != 0: "snez d,x", unsigned 0 < x, which also
// holds for x an address (a pointer tested against NULL, as in "wq &&
// waitqueue_active(&wq->wait)"), where the signed comparisons it used to
// make have no value.
func rvNonZeroOf(d, x string) []string {
	return []string{"sltu " + d + ",x0," + x}
}

func (riscv) unary(op, d, x string) []string {
	switch op {
	case "-":
		return []string{"sub " + d + ",x0," + x}
	case "~":
		return []string{"xori " + d + "," + x + ",-1"}
	}
	return append(rvNonZeroOf("x30", x), "xori "+d+",x30,1")
}

func (riscv) binary(op, d, x, y string) ([]string, error) {
	switch op {
	case "==":
		return append(append([]string{"xor x29," + x + "," + y}, rvNonZeroOf("x30", "x29")...), "xori "+d+",x30,1"), nil
	case "!=":
		return append([]string{"xor x29," + x + "," + y}, rvNonZeroOf(d, "x29")...), nil
	case "<":
		return []string{"slt " + d + "," + x + "," + y}, nil
	case ">":
		return []string{"slt " + d + "," + y + "," + x}, nil
	case "<=":
		return []string{"slt x30," + y + "," + x, "xori " + d + ",x30,1"}, nil
	case ">=":
		return []string{"slt x30," + x + "," + y, "xori " + d + ",x30,1"}, nil
	case "&&", "||":
		alu := "and"
		if op == "||" {
			alu = "or"
		}
		code := append(rvNonZeroOf("x28", x), rvNonZeroOf("x29", y)...)
		return append(code, alu+" "+d+",x28,x29"), nil
	case "*":
		return nil, fmt.Errorf("multiplication: RV64I has no mul (the M extension is not in herd's RISCV dialect)")
	}
	alu, ok := map[string]string{"+": "add", "-": "sub", "&": "and", "|": "or", "^": "xor", "<<": "sll", ">>": "sra"}[op]
	if !ok {
		return nil, fmt.Errorf("operator %s", op)
	}
	return []string{alu + " " + d + "," + x + "," + y}, nil
}

func (riscv) branchZ(x, l string) []string { return []string{"beq " + x + ",x0," + l} }

func (riscv) cmpBranch(op, x, y, l string) []string {
	switch op {
	case "==":
		return []string{"beq " + x + "," + y + "," + l}
	case "!=":
		return []string{"bne " + x + "," + y + "," + l}
	case "<":
		return []string{"blt " + x + "," + y + "," + l}
	case ">=":
		return []string{"bge " + x + "," + y + "," + l}
	case ">":
		return []string{"blt " + y + "," + x + "," + l}
	}
	return []string{"bge " + y + "," + x + "," + l} // <=
}

func (riscv) format(op string, args []string) string {
	if len(args) == 0 {
		return op
	}
	return op + " " + strings.Join(args, ",")
}

// ppc: the rows' scratch is r28-r31; r23-r25 carry constant operands, r26
// takes discarded results, r27 is the retry flag; r0 is never allocated
// (as an X-form base it reads as 0). Comparisons that give a value read
// CR0 with mfcr, andi. and divw, which herd 7.58 executes.
type ppc struct{}

func (ppc) pool() []string         { return regs("r", [2]int{3, 22}) }
func (ppc) args() [3]string        { return [3]string{"r23", "r24", "r25"} }
func (ppc) tmp() [2]string         { return [2]string{"r28", "r29"} }
func (ppc) discard() string        { return "r26" }
func (ppc) flag() string           { return "r27" }
func (ppc) mov(d, s string) string { return "mr " + d + "," + s }

func (ppc) jump(l string) string { return "b " + l }

// ext: extsw for an int; andi. for the 8- and 16-bit types, then for a
// signed one the xor and subtract of the sign bit (herd's PPC has no
// extsb, extsh); an unsigned int is anded with 0xffffffff built in r30
// (herd's clrldi does not clear the high word).
func (ppc) ext(d, s string, k ctype.Kind) []string {
	switch {
	case k.Signed && k.Bits == 32:
		return []string{"extsw " + d + "," + s}
	case k.Bits == 32:
		return []string{"lis r30,32767", "ori r30,r30,65535", "add r30,r30,r30", "ori r30,r30,1", "and " + d + "," + s + ",r30"}
	}
	m := uint64(1)<<k.Bits - 1
	out := []string{fmt.Sprintf("andi. %s,%s,%d", d, s, m)}
	if k.Signed {
		b := (m + 1) / 2
		out = append(out, fmt.Sprintf("xori %s,%s,%d", d, d, b), fmt.Sprintf("addi %s,%s,%d", d, d, -int64(b)))
	}
	return out
}

// li sets d to v: li for 16 bits, lis and ori for 32; a wider constant
// is its high word so built, shifted left by 16 twice with the next
// chunks ored in (herd's PPC has no sldi or oris: a shift is 16 adds).
func (ppc) li(d string, v int64) []string {
	if v >= -1<<15 && v < 1<<15 {
		return []string{fmt.Sprintf("li %s,%d", d, v)}
	}
	li32 := func(v int64) []string {
		return []string{fmt.Sprintf("lis %s,%d", d, v>>16), fmt.Sprintf("ori %s,%s,%d", d, d, v&0xffff)}
	}
	if v >= -1<<31 && v < 1<<31 {
		return li32(v)
	}
	if v >= 0 && v < 1<<32 {
		return append(li32(int64(int32(v))), ppc{}.ext(d, d, ctype.Kind{Bits: 32})...)
	}
	out := li32(v >> 32)
	for _, sh := range []uint{16, 0} {
		for range 16 {
			out = append(out, "add "+d+","+d+","+d)
		}
		out = append(out, fmt.Sprintf("ori %s,%s,%d", d, d, uint64(v)>>sh&0xffff))
	}
	return out
}

// ppcBit sets d to the CR0 bit (8 LT, 4 GT, 2 EQ) as 0 or 1, negated
// when not, through r30 and r31.
func ppcBit(d string, bit int, not bool) []string {
	out := []string{"mfcr r30", fmt.Sprintf("andi. r30,r30,%d", bit), fmt.Sprintf("li r31,%d", bit)}
	if not {
		return append(out, "divw r30,r30,r31", "xori "+d+",r30,1")
	}
	return append(out, "divw "+d+",r30,r31")
}

func (ppc) unary(op, d, x string) []string {
	switch op {
	case "-":
		return []string{"li r30,0", "sub " + d + ",r30," + x}
	case "~":
		return []string{"li r30,-1", "xor " + d + "," + x + ",r30"}
	}
	return append([]string{"cmpwi " + x + ",0"}, ppcBit(d, 2, false)...)
}

var ppcCmp = map[string]struct {
	bit int
	not bool
}{"==": {2, false}, "!=": {2, true}, "<": {8, false}, ">=": {8, true}, ">": {4, false}, "<=": {4, true}}

func (ppc) binary(op, d, x, y string) ([]string, error) {
	if c, ok := ppcCmp[op]; ok {
		return append([]string{"cmpw " + x + "," + y}, ppcBit(d, c.bit, c.not)...), nil
	}
	switch op {
	case "&&", "||":
		alu := "and"
		if op == "||" {
			alu = "or"
		}
		code := append([]string{"cmpwi " + x + ",0"}, ppcBit("r28", 2, true)...)
		code = append(code, "cmpwi "+y+",0")
		code = append(code, ppcBit("r29", 2, true)...)
		return append(code, alu+" "+d+",r28,r29"), nil
	}
	alu, ok := map[string]string{"+": "add", "-": "sub", "&": "and", "|": "or", "^": "xor", "*": "mullw", "<<": "slw", ">>": "sraw"}[op]
	if !ok {
		return nil, fmt.Errorf("operator %s", op)
	}
	return []string{alu + " " + d + "," + x + "," + y}, nil
}

func (ppc) branchZ(x, l string) []string { return []string{"cmpwi " + x + ",0", "beq " + l} }

func (ppc) cmpBranch(op, x, y, l string) []string {
	br := map[string]string{"==": "beq", "!=": "bne", "<": "blt", ">=": "bge", ">": "bgt", "<=": "ble"}[op]
	return []string{"cmpw " + x + "," + y, br + " " + l}
}

func (ppc) format(op string, args []string) string {
	if len(args) == 0 {
		return op
	}
	return op + " " + strings.Join(args, ",")
}
