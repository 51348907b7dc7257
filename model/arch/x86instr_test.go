package arch_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/cat/interp"
)

// TestX86InstructionTable runs small tests of every instruction and
// operand form the operational compiler accepts, in both syntaxes, under
// sc.cat and x86tso.cat, and checks that each gives the operational
// machine's answer; and that what the compiler refuses, the semantics
// refuses too, with an error at the instruction.
func TestX86InstructionTable(t *testing.T) {
	cases := []struct {
		name, src string
		bad       bool // both refuse it
	}{
		{"reg-arith", `X86 a
{ }
 P0 ;
 MOV EAX,$5 ;
 SUB EAX,$2 ;
 AND EAX,$7 ;
 OR EAX,$8 ;
 XOR EAX,$1 ;
 SHL EAX,$2 ;
 SAR EAX,$1 ;
 SHR EAX,$1 ;
 SAL EAX,$1 ;
 NEG EAX ;
 MOV EBX,EAX ;
 NOT EBX ;
 INC EBX ;
 DEC EBX ;
 DEC EBX ;
 MOV [x],EBX ;
exists (0:EAX=-10 /\ x=8)
`, false},
		{"carry", `X86 c
{ }
 P0 ;
 MOV EAX,$-8 ;
 SHR EAX,$1 ;
 MOV EBX,$3 ;
 SUB EBX,$5 ;
 SETNB [x] ;
 MOV ECX,$5 ;
 SUB ECX,$3 ;
 SETNB [y] ;
 ADD ECX,$-1 ;
 SETNB [z] ;
 NEG EBX ;
 SETNB [w] ;
 INC EBX ;
 SETNB [u] ;
 AND EBX,$0 ;
 SETNB [v] ;
exists (0:EAX=-4 /\ x=0 /\ y=1 /\ z=0 /\ w=0 /\ u=0 /\ v=1)
`, false}, // the carry as the SDM sets it (SHR as the compiler shifts)
		{"mem-arith", `X86 m
{ x=6; }
 P0 | P1 ;
 SUB [x],$1 | NEG [x] ;
 AND [x],$3 | ;
exists (x=2)
`, false},
		{"mem-arith-2", `X86 m2
{ x=6; }
 P0 | P1 ;
 OR [x],$8 | NOT [x] ;
exists (x=-7)
`, false},
		{"mem-arith-3", `X86 m3
{ x=6; }
 P0 | P1 ;
 XOR [x],$2 | SHL [x],$1 ;
exists (x=4)
`, false},
		{"locked-ops", `X86 l
{ x=6; }
 P0 | P1 ;
 LOCK SUB [x],$1 | LOCK AND [x],$3 ;
 | MOV EAX,[x] ;
exists (1:EAX=0)
`, false},
		{"locked-ops-2", `X86 l2
{ x=6; }
 P0 | P1 ;
 LOCK OR [x],$8 | LOCK XOR [x],$2 ;
 LOCK DEC [x] | MOV EAX,[x] ;
exists (1:EAX=12)
`, false},
		{"jumps", `X86 j
{ }
 P0 | P1 ;
 MOV [x],$1 | MOV EAX,[x] ;
 MOV [x],$2 | CMP EAX,$1 ;
            | JL L0 ;
            | MOV [y],$1 ;
            | L0: ;
            | CMP EAX,$1 ;
            | JLE L1 ;
            | MOV [z],$1 ;
            | L1: ;
            | CMP EAX,$1 ;
            | JG L2 ;
            | MOV [w],$1 ;
            | L2: ;
            | TEST EAX,EAX ;
            | JZ L3 ;
            | MOV [v],$1 ;
            | L3: ;
exists (y=1 /\ z=1)
`, false},
		{"jumps-2", `X86 j2
{ }
 P0 | P1 ;
 MOV [x],$1 | MOV EAX,[x] ;
 MOV [x],$2 | SUB EAX,$1 ;
            | JS L0 ;
            | MOV [y],$1 ;
            | L0: ;
            | CMP EAX,$0 ;
            | JNS L1 ;
            | MOV [z],$1 ;
            | L1: ;
            | CMP EAX,$0 ;
            | JGE L2 ;
            | MOV [w],$1 ;
            | L2: ;
            | CMP EAX,$1 ;
            | JNZ L3 ;
            | JMP L4 ;
            | L3: ;
            | MOV [v],$1 ;
            | L4: ;
exists (y=1 /\ z=1)
`, false},
		{"jmp-ret", `X86 r
{ }
 P0 ;
 JMP L0 ;
 MOV [x],$1 ;
 L0: ;
 MOV [y],$1 ;
 RET ;
 MOV [z],$1 ;
exists (x=0 /\ y=1 /\ z=0)
`, false},
		{"moves", `X86 mv
{ x=3; }
 P0 ;
 MOVZX EAX,[x] ;
 MOVSX EBX,EAX ;
 MOVABS ECX,$7 ;
 MOVNTI [y],ECX ;
 XCHG EAX,ECX ;
 MOVW [z],$2 ;
exists (0:EAX=7 /\ 0:ECX=3 /\ y=7)
`, false},
		{"exchanges", `X86 ex
{ }
 P0 | P1 ;
 MOV EAX,$1 | MOV EAX,$2 ;
 UXCH [x],EAX | XCHG EAX,[x] ;
 MOV EBX,[y] | MOV EBX,[y] ;
exists (0:EAX=0 /\ 1:EAX=0)
`, false},
		{"cmpxchg-unlocked", `X86 cu
{ }
 P0 | P1 ;
 MOV EAX,$0 | MOV EAX,$0 ;
 MOV EBX,$1 | MOV EBX,$2 ;
 CMPXCHG [x],EBX | CMPXCHG [x],EBX ;
exists (0:EAX=0 /\ 1:EAX=0)
`, false},
		{"cmpxchg-coherence", `X86 cc
{ }
 P0 | P1 ;
 MOV EAX,$5 | MOV [x],$5 ;
 MOV EBX,$7 | ;
 CMPXCHG [x],EBX | ;
locations [0:EAX;x;]
exists (0:EAX=5 /\ x=5)
`, false}, // the read of an unlocked CMPXCHG cannot read a write coherence-after its own
		{"cmpxchg-locked", `X86 cl
{ }
 P0 | P1 ;
 MOV EAX,$0 | MOV [y],$1 ;
 MOV EBX,$1 | MOV ECX,[x] ;
 MOV [x],$2 | ;
 LOCK CMPXCHG [y],EBX | ;
 MOV EDX,[x] | ;
exists (0:EAX=1 /\ 1:ECX=0)
`, false},
		{"xadd-setnb-cmovc", `X86 xs
{ x=1; }
 P0 | P1 ;
 MOV EAX,$2 | LOCK INC [x] ;
 LOCK XADD [x],EAX | ;
 CMP EAX,$2 | ;
 SETNB EBX | ;
 CMOVC ECX,EAX | ;
 SETNB [y] | ;
exists (0:EAX=1)
`, false},
		{"no-ops", `X86 n
{ }
 P0 | P1 ;
 MOV [x],$1 | MOV [y],$1 ;
 NOP | PAUSE ;
 LFENCE | SFENCE ;
 CLFLUSH [x] | PREFETCH [y] ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
`, false},
		{"address-values", `X86 av
{ 0:EAX=x; 0:ECX=y; }
 P0 ;
 MOV EBX,EAX ;
 MOV [EBX],$1 ;
 CMP EAX,EBX ;
 JNE L0 ;
 MOV [y],$2 ;
 L0: ;
 CMP EAX,$0 ;
 JL L1 ;
 MOV [ECX+4],$3 ;
 L1: ;
exists (x=1 /\ y=2)
`, false}, // [ECX+4] is the address of no location: those executions drop
		{"address-values-2", `X86 av2
{ 0:EAX=x; }
 P0 ;
 MOV EBX,EAX ;
 MOV [EBX],$1 ;
 CMP EAX,EBX ;
 JNE L0 ;
 MOV [y],$2 ;
 L0: ;
 CMP EAX,$0 ;
 JL L1 ;
 MOV [y],$3 ;
 L1: ;
 SUB EBX,EAX ;
exists (x=1 /\ y=3 /\ 0:EBX=0)
`, false},
		{"as-written", `X86 w
{ 0:eax=1; }
 P0 ;
 MOV [x],EAX ;
 MOV al,[x] ;
exists (0:eax=1 /\ 0:EAX=1 /\ 0:rax=1)
`, false},
		{"att", `X86_64 att
{ x=1; }
 P0 | P1 ;
 movq $2,%rax | lock incl (x) ;
 lock xaddq %rax,(x) | movl $0,%eax ;
 cmpl $2,%eax | movl $5,%ebx ;
 setnb %bl | lock cmpxchgl %ebx,(y) ;
 addq $1,(y) | xchgq %rcx,(x) ;
 subl $1,%eax | ;
 movntiq %eax,(z) | ;
 jns L0 | ;
 movl $1,(w) | ;
 L0: | ;
exists (0:rax=0 /\ 1:rcx=2)
`, false},
		{"att-array", `X86_64 arr
{
int64_t t[3]={1,-1,5};
0:rax=t;
0:rbx=1;
}
 P0 ;
 movq 0(%rax,%rbx,8),%rcx ;
 movq $7,8(%rax,%rbx,8) ;
 movq 16(%rax),%rdx ;
 movq 24(%rax),%rsi ;
forall (0:rcx=-1 /\ 0:rdx=7)
`, false}, // the access past the array makes the execution drop
		{"mem-to-mem", `X86 mm
{ }
 P0 ;
 MOV [x],[y] ;
exists (x=0)
`, true},
		{"xadd-unlocked", `X86 xu
{ }
 P0 ;
 XADD [x],EAX ;
exists (x=0)
`, true},
		{"lock-neg", `X86 ln
{ }
 P0 ;
 LOCK NEG [x] ;
exists (x=0)
`, true},
		{"unknown", `X86 u
{ }
 P0 ;
 BSWAP EAX ;
exists (x=0)
`, true},
		{"no-location", `X86 nl
{ }
 P0 ;
 MOV EAX,[4] ;
exists (x=0)
`, true},
	}
	sc, tso := libModel(t, "sc.cat"), libModel(t, "x86tso.cat")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			test, err := litmus.Parse(c.name+".litmus", []byte(c.src))
			require.NoError(t, err)
			for _, m := range []struct {
				op  model.Model
				cat *interp.Model
			}{{model.SC, sc}, {model.TSO, tso}} {
				op, opErr := runOp(t, test, m.op)
				p, err := arch.Program(test, arch.Options{})
				var catErr error
				var got *interp.Result
				if err != nil {
					catErr = err
				} else {
					got, catErr = m.cat.Check(context.Background(), p, interp.CheckOptions{})
				}
				if c.bad {
					require.Error(t, opErr, "the operational compiler accepts it")
					require.Error(t, catErr, "the semantics accepts it")
					require.Contains(t, catErr.Error(), c.name+".litmus:", "the error names the instruction's position")
					continue
				}
				require.NoError(t, opErr)
				require.NoError(t, catErr)
				require.Equal(t, op.String(), catAnswer(got).String(), "%s", m.op)
			}
		})
	}
}
