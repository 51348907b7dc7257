package op

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
)

// This file declares the intermediate representation that both dialects
// compile to. A program is a fixed set of shared locations (each array
// element its own location) and one straight list of instructions per
// thread; control flow is explicit branches. The machines (sc.go, tso.go,
// pso.go) give the memory instructions their meaning; everything else
// (registers, branches, RCU bookkeeping) is the same in every model and
// lives in exec.go.

// val is a machine value: an integer, or the address of a location
// (addrBase + the location's byte offset, see layout).
type val = int64

// opcode is what an instruction does.
type opcode uint8

const (
	opNop       opcode = iota // no effect
	opAssign                  // dst = a
	opBranch                  // if a != 0 goto target
	opJump                    // goto target
	opLoad                    // dst = ret(mem[addr])
	opStore                   // mem[addr] = a (buffered in TSO/PSO)
	opRMW                     // atomic read-modify-write of mem[addr]
	opFence                   // a fence of kind fence
	opLock                    // spin_lock: wait until mem[addr] == 0, then set it to 1 (a locked RMW)
	opTryLock                 // spin_trylock: dst = 1 and take the lock if free, else dst = 0
	opUnlock                  // spin_unlock: a release store of 0
	opRCULock                 // enter a read-side critical section of domain dom
	opRCUUnlock               // leave it
	opGPStart                 // synchronize_rcu/srcu: full fence, then record the readers of dom to wait for
	opGPWait                  // wait until those readers have left, then full fence
)

var opNames = [...]string{"nop", "assign", "branch", "jump", "load", "store", "rmw", "fence", "lock", "trylock", "unlock", "rcu-lock", "rcu-unlock", "gp-start", "gp-wait"}

func (o opcode) String() string { return opNames[o] }

// fenceKind is the hardware meaning of a fence, already mapped for the
// models (docs/semantics.md): full fences empty the store buffers; store
// fences order earlier stores before later ones (only PSO needs it);
// everything else has no hardware effect in these models.
type fenceKind uint8

const (
	fenceNone  fenceKind = iota // compiler barrier, rmb, after-atomic, ...: no effect
	fenceFull                   // smp_mb, MFENCE: wait until the thread's buffers are empty
	fenceStore                  // smp_wmb, SFENCE: earlier stores drain before later ones
)

// retKind says how a load or RMW turns what it read into the destination
// register's value.
type retKind uint8

const (
	retValue     retKind = iota // the value read (load) / old value (RMW)
	retNew                      // the value written
	retNewIsZero                // new == 0
	retNewIsNeg                 // new < 0
	retOldBit                   // old & operand != 0
	retBit                      // (loaded >> nr) & 1
	retSuccess                  // the conditional RMW took effect
	retNonZero                  // loaded != 0 (spin_is_locked)
)

// instr is one IR instruction.
type instr struct {
	op     opcode
	dst    int // destination register, or -1
	addr   *expr
	a, b   *expr // operands: value, then cmpxchg's new value or add_unless's limit
	rmw    litmus.RMWOp
	ret    retKind
	fence  fenceKind
	rel    bool // a release store (PSO orders earlier stores before it)
	target int  // branch/jump target
	dom    int  // RCU domain: 0 for RCU, 1+i for the i-th srcu_struct
	// badStatic reports a constant address that is no location's
	// (exec.go, badAccess).
	badStatic bool

	pos  litmus.Pos
	text string // the source text, for traces
}

// exprKind says what an expr node is.
type exprKind uint8

const (
	exConst  exprKind = iota // v
	exReg                    // registers[reg]
	exUnary                  // op x
	exBinary                 // x op y
	exCond                   // x ? y : z
	exOffset                 // ptr_add(x, y): the address y bytes past x in x's object (objs)
)

// expr is a register expression, evaluated on the thread's registers.
type expr struct {
	kind    exprKind
	v       val
	reg     int
	op      string
	x, y, z *expr
	pos     litmus.Pos
	objs    *objTable // exOffset only
}

// objTable places the locations in the test's objects (litmus.Object):
// each cell's address with its object and offset, and back.
type objTable struct {
	p    *program
	cell map[val]objCell
	at   map[objCell]val
}

type objCell struct {
	obj int
	off val
}

// wildAddr is the value of a ptr_add that leaves its object (or lands
// between its cells): no location's address, and no small integer, so
// that an access there is found (exec.go, badAccess) and a test of the
// pointer against NULL is false.
const wildAddr val = -0x5ead_0000

// offset is ptr_add(a, n): the address n bytes past a within a's object.
// A location in no object is an object of its own.
func (t *objTable) offset(a, n val) val {
	if n == 0 {
		return a
	}
	c, ok := t.cell[a]
	if !ok {
		if _, isLoc := t.p.locAt(a); isLoc {
			return wildAddr
		}
		return a + n // NULL+n and the like: no address either
	}
	if b, ok := t.at[objCell{c.obj, c.off + n}]; ok {
		return b
	}
	return wildAddr
}

func constExpr(v val) *expr { return &expr{kind: exConst, v: v} }
func regExpr(r int) *expr   { return &expr{kind: exReg, reg: r} }

// staticAddr reports the constant address of e, if it is one.
func (e *expr) static() (val, bool) {
	if e != nil && e.kind == exConst {
		return e.v, true
	}
	return 0, false
}

// thread is one compiled thread.
type thread struct {
	id    int // the N of PN
	code  []instr
	regs  []string // register names, index = register number
	init  []val    // initial register values
	alias map[string]int
	// conv converts a value assigned to a register to its declared C
	// type (model/ctype); nil or a zero Kind: none.
	conv []ctype.Kind
}

// set assigns v to register r of regs, converted to r's C type.
func (th *thread) set(regs []val, r int, v val) {
	if r < len(th.conv) {
		v = th.conv[r].Convert(v)
	}
	regs[r] = v
}

// location is one shared memory cell.
type location struct {
	name  string // "x", or "t[1]" for an array element
	base  string // the array's name for an element, else name
	index int    // the element index, or -1
	addr  val    // its address value
	init  val
	size  int // bytes, for x86 address arithmetic
	// conv narrows a value stored to the location to its C type
	// (model/ctype.Locations): an int keeps 32 bits, as the kernel's
	// compilers store it.
	conv ctype.Kind
}

// stored returns v as location l keeps it: converted to its C type.
func (p *program) stored(l int, v val) val {
	if l < len(p.locs) {
		return p.locs[l].conv.Convert(v)
	}
	return v
}

// program is a compiled test.
type program struct {
	test    *litmus.Test
	threads []*thread
	locs    []location
	byName  map[string]int // location name -> index
	byAddr  map[val]int    // address -> location index
	domains []string       // RCU domains: "" for RCU, then the srcu_structs' names

	// hasLoops reports a backward branch: the state graph may have
	// cycles, so the reduction does not apply and stuck states need the
	// graph's edges.
	hasLoops bool
}

// addrBase is the address of the first location. It is an unusual number
// so that an integer in a test is not mistaken for an address.
const addrBase val = 0x7f5a_0000_0000

// locAt returns the location at address a.
func (p *program) locAt(a val) (int, bool) {
	i, ok := p.byAddr[a]
	return i, ok
}

// symbol returns the name of the location whose address is v.
func (p *program) symbol(v val) (string, bool) {
	if v < addrBase || v > addrBase+1<<32 {
		return "", false
	}
	i, ok := p.byAddr[v]
	if !ok {
		return "", false
	}
	return p.locs[i].name, true
}
