package harness

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cir"
)

// C threads are compiled by model/cir, the one lowering of C that
// model/kcomp shares, to a small list of operations on numbered register
// slots; the code generators (x86c.go, gena64.go) read its Thread as it
// is. An address operand's Var is the index of the variable in
// program.vars: cEnv.Location numbers them so.

// cEnv is the test around a thread, as model/cir asks for it.
type cEnv struct{ p *program }

func (e cEnv) Shared(name string) bool {
	_, ok := e.p.byName[name]
	_, cell := e.p.cells[name]
	return ok || cell
}

func (e cEnv) Location(name string) (int, int, bool) {
	v, i, ok := e.p.elemOf(name)
	if !ok {
		return 0, 0, false
	}
	for k, w := range e.p.vars {
		if w == v {
			return k, i, true
		}
	}
	return 0, 0, false
}

func (e cEnv) Primitive(name string) (*litmus.Primitive, bool) { return litmus.Lookup(name) }

func (e cEnv) Errorf(pos litmus.Pos, format string, args ...any) error {
	return e.p.errorf(pos, format, args...)
}

func (e cEnv) Unsupported(pos litmus.Pos, format string, args ...any) error {
	return e.p.unsupported(pos, format, args...)
}

// compileC compiles thread pr.
func (p *program) compileC(pr *litmus.Proc) (*cir.Thread, error) {
	return cir.Compile(cEnv{p}, pr)
}

// varOf returns the variable an address operand names, or nil for an
// operand that is no address.
func (p *program) varOf(o cir.Operand) *variable {
	if o.Kind != cir.Addr {
		return nil
	}
	return p.vars[o.Var]
}
