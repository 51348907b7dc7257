package op

import (
	"github.com/litmus-dev/litmus/model/report"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestX86Instructions pins the final states of small X86 and X86_64
// programs using the instructions and operand forms of herd's grammars
// that compile_x86.go once rejected. Each case gives every reachable
// final state under TSO.
func TestX86Instructions(t *testing.T) {
	cases := []struct{ name, src string }{
		{"sized-mov", `X86 sized
{ x=0; }
 P0          ;
 MOVB [x],$1 ;
 MOVL EAX,[x] ;
 MOVQ EBX,EAX ;
 MOVW [y],$2 ;
exists (0:EBX=1 /\ y=2)
`}, // Intel MOVB/MOVW/MOVL/MOVQ are moves.
		{"mem-source", `X86 memsrc
{ x=5; }
 P0           ;
 MOV EAX,$1   ;
 ADD EAX,[x]  ;
 XOR EBX,(x)  ;
exists (0:EAX=6 /\ 0:EBX=5)
`}, // a memory source operand, in both Intel spellings.
		{"carry", `X86 carry
{ x=7; }
 P0            ;
 MOV EAX,$3    ;
 CMP EAX,$5    ;
 CMOVC EBX,[x] ;
 SETNB [y]     ;
 CMP EAX,$2    ;
 CMOVC ECX,[x] ;
 SETNB [z]     ;
 MOV EDX,$-1   ;
 ADD EDX,$1    ;
 SETNB [w]     ;
exists (0:EBX=7 /\ 0:ECX=0 /\ y=0 /\ z=1 /\ w=0)
`}, // 3 <u 5 sets CF, 3 <u 2 clears it, -1 + 1 carries out.
		{"unlocked-flags", `X86 flags
{ x=1; }
 P0          ;
 DEC [x]     ;
 JNE L0      ;
 MOV [y],$1  ;
 L0:         ;
exists (y=1)
`}, // DEC without LOCK still sets ZF.
		{"lock-semi", `X86 locksemi
{ x=0; }
 P0            | P1            ;
 LOCK; INC [x] | LOCK; INC [x] ;
exists (x=2)
`}, // herd reads "LOCK; INC" as one locked instruction.
		{"att-forms", `X86_64 forms
{ x=0; 0:rbx=y; }
 P0                 ;
 movq $1,%rax       ;
 uxchq %rax,[x]     ;
 movq $3,%rcx       ;
 movnti %rcx,[%rbx] ;
 clflush (y)        ;
 clflushopt [%rbx]  ;
 movq $1,%rax       ;
 cmpxchgq %rcx,(x)  ;
 movq $9,%rax       ;
 cmpxchgq %rcx,(y)  ;
 cmpq $5,%rcx       ;
 setnb (z)          ;
exists (x=3)
`}, // UXCH, MOVNTI, CLFLUSH, [..] addresses, CMPXCHG without LOCK both ways.
		{"unlocked-cmpxchg-races", `X86_64 race
{ x=0; }
 P0                | P1                ;
 movq $1,%rcx      | movq $2,%rcx      ;
 cmpxchgq %rcx,(x) | cmpxchgq %rcx,(x) ;
exists (0:rax=0 /\ 1:rax=0)
`}, // not atomic: both may read 0 and both store.
	}
	want := map[string][]string{
		"sized-mov":      {"0:EBX=1; [y]=2;"},
		"mem-source":     {"0:EAX=6; 0:EBX=5;"},
		"carry":          {"0:EBX=7; 0:ECX=0; [w]=0; [y]=0; [z]=1;"},
		"unlocked-flags": {"[y]=1;"},
		"lock-semi":      {"[x]=2;"},
		"att-forms":      {"[x]=3;"},
		"unlocked-cmpxchg-races": {
			"0:rax=0; 1:rax=0;",
			"0:rax=0; 1:rax=1;",
			"0:rax=2; 1:rax=0;",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.src, TSO, report.Options{})
			require.Equal(t, want[c.name], stateLines(res))
			require.Empty(t, res.Stuck)
		})
	}
}
