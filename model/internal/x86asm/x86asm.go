// Package x86asm holds the conventions of herd's X86 and X86_64 dialects
// that both the operational compiler (package model) and the axiomatic
// semantics (package model/arch) follow, so that the two read an
// instruction and a register the same way.
package x86asm

import (
	"strconv"
	"strings"
)

// regAliases maps every spelling of a general-purpose register (lower
// case, without '%') to its 64-bit name: eax, ax, al, ah and rax are all
// rax.
var regAliases = func() map[string]string {
	m := map[string]string{}
	for _, r := range []string{"a", "b", "c", "d"} {
		full := "r" + r + "x"
		for _, a := range []string{"e" + r + "x", r + "x", r + "l", r + "h", full} {
			m[a] = full
		}
	}
	for _, r := range []string{"si", "di", "bp", "sp"} {
		full := "r" + r
		for _, a := range []string{"e" + r, r, r + "l", full} {
			m[a] = full
		}
	}
	for i := 8; i <= 15; i++ {
		full := "r" + strconv.Itoa(i)
		for _, suf := range []string{"", "d", "w", "b"} {
			m[full+suf] = full
		}
	}
	return m
}()

// CanonReg returns the name under which a register is kept: every alias
// of a general-purpose register (EAX, eax, ax, al, %eax, RAX) is its
// 64-bit lower-case name; any other name is lower-cased.
func CanonReg(name string) string {
	n := strings.ToLower(strings.TrimPrefix(name, "%"))
	if c, ok := regAliases[n]; ok {
		return c
	}
	return n
}

// suffixed lists the AT&T mnemonics that take an operand-size suffix
// (b, w, l, q) which Mnemonic drops.
const suffixed = " xchg uxch add sub and or xor inc dec cmp test xadd cmpxchg cmovc movnti shl shr sal sar nop neg not lea "

// Mnemonic returns the lower-case operation of op, without an AT&T size
// suffix (att reports whether the test is X86_64). MOVB/MOVW/MOVL/MOVQ are
// MOV in both syntaxes, as herd's X86 grammar also takes them.
func Mnemonic(op string, att bool) string {
	m := strings.ToLower(op)
	switch m {
	case "mfence", "lfence", "sfence", "nop", "endbr64", "ret", "retq", "pause", "jmp", "jmpq", "jl", "jg", "jne":
		return m
	}
	if len(m) > 2 {
		base := m[:len(m)-1]
		switch m[len(m)-1] {
		case 'b', 'w', 'l', 'q':
			switch {
			case base == "mov":
				return base
			case !att:
			case strings.Contains(suffixed, " "+base+" "):
				return base
			}
		}
	}
	return m
}
