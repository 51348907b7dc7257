package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
)

// caster returns the conversion of final values to their declared types:
// herd prints (and compares) each value cast to the type its location or
// register has in the init section, int (signed 32 bits) when none.
func (p *program) caster(ap *axiom.Program) func(th int, name string, v axiom.Val) axiom.Val {
	t := p.typer(ap)
	return func(th int, name string, v axiom.Val) axiom.Val {
		if v.IsAddr() {
			return v
		}
		return axiom.Int(castTo(t(th, name), v.N))
	}
}

// unsigned returns whether a register or location prints unsigned in
// 64 bits: herd prints a value of a 64-bit unsigned type (uint64_t,
// uintptr_t) as such (archExtra_herd.ml, pp_typed).
func (p *program) unsigned(ap *axiom.Program) func(th int, name string) bool {
	t := p.typer(ap)
	return func(th int, name string) bool {
		switch strings.TrimSpace(t(th, name)) {
		case "uint64_t", "uintptr_t", "pteval_t":
			return true
		}
		return false
	}
}

// typer returns the declared type of a register (th >= 0) or location.
func (p *program) typer(ap *axiom.Program) func(th int, name string) string {
	locType := map[string]string{}
	regType := map[int]map[string]string{}
	for _, it := range p.test.Init {
		if it.Type == "" {
			continue
		}
		if it.Proc < 0 {
			locType[it.Name] = it.Type
			continue
		}
		ti := -1
		for i, pr := range sortedProcs(p.test) {
			if pr.ID == it.Proc {
				ti = i
			}
		}
		if regType[ti] == nil {
			regType[ti] = map[string]string{}
		}
		regType[ti][ap.RegName(it.Name)] = it.Type
	}
	return func(th int, name string) string {
		if th >= 0 {
			return regType[th][name]
		}
		if i := strings.IndexByte(name, '['); i > 0 {
			name = name[:i] // an array's cell has the array's type
		}
		return locType[name]
	}
}

// castTo converts x to C type t ("" is int).
func castTo(t string, x int64) int64 {
	switch strings.TrimSpace(t) {
	case "", "int", "int32_t", "signed", "signed int", "long":
		// herd's long is 32 bits (lib/testType.ml, size_of).
		return int64(int32(x))
	case "uint32_t", "unsigned", "unsigned int":
		return int64(uint32(x))
	case "int8_t", "char", "signed char":
		return int64(int8(x))
	case "uint8_t", "unsigned char":
		return int64(uint8(x))
	case "int16_t", "short", "signed short":
		return int64(int16(x))
	case "uint16_t", "unsigned short":
		return int64(uint16(x))
	}
	// 64-bit types (int64_t, uint64_t, intptr_t, pointers); herd prints
	// the unsigned ones unsigned (program.unsigned).
	return x
}

// maskTo keeps the bytes of x that C type t holds ("" is int),
// zero-extended, as herd does for the initial values of memory.
func maskTo(t string, x int64) int64 {
	switch strings.TrimSpace(t) {
	case "", "int", "int32_t", "signed", "signed int", "uint32_t", "unsigned", "unsigned int", "long":
		return int64(uint32(x))
	case "int8_t", "char", "signed char", "uint8_t", "unsigned char":
		return int64(uint8(x))
	case "int16_t", "short", "signed short", "uint16_t", "unsigned short":
		return int64(uint16(x))
	}
	return x
}
