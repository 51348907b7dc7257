package op

import (
	"github.com/litmus-dev/litmus/model/report"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSingleThread pins the meaning of the language on one-thread
// programs, where every model has exactly one final state.
func TestSingleThread(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"loops", `C loops
{}
P0(int *x)
{
	int i;
	int r0;
	for (i = 0; i < 4; i++) {
		if (i == 1)
			continue;
		if (i == 3)
			break;
		r0 = READ_ONCE(*x);
		WRITE_ONCE(*x, r0 + i + 10);
	}
	do {
		i--;
	} while (i > 0);
	while (1) {
		i = i + 5;
		if (i >= 10)
			break;
	}
}
locations [x; 0:i]
exists (x=0)
`, "0:i=10; [x]=22;"},
		{"pointers", `C pointers
{
	int *p = &y;
	int *q = z;
	0:r3 = 7;
	atomic_t a = ATOMIC_INIT(5);
	int y = 3;
}
P0(int **p, int **q, int *y, int *z, atomic_t *a)
{
	int *r1;
	int r2;
	r1 = READ_ONCE(*p);
	r2 = READ_ONCE(*r1);
	*z = r2 + r3;
	r1 = rcu_dereference(*q);
	r2 = *r1 + atomic_read(a);
	rcu_assign_pointer(*p, z);
}
locations [0:r1; 0:r2; p; z]
exists (z=0)
`, "0:r1=z; 0:r2=15; [p]=z; [z]=10;"},
		{"atomics", `C atomics
{
	atomic_t a = ATOMIC_INIT(1);
	unsigned long b = 5;
	int c = 3;
}
P0(atomic_t *a, unsigned long *b, int *c)
{
	int r0;
	int r1;
	int r2;
	int r3;
	int r4;
	int r5;
	int r6;
	r0 = atomic_fetch_add(2, a);
	r1 = atomic_dec_and_test(a);
	r2 = cmpxchg(c, 3, 9);
	r3 = cmpxchg(c, 3, 4);
	r4 = atomic_add_unless(a, 1, 2);
	r5 = test_and_set_bit(1, b);
	clear_bit(0, b);
	__set_bit(3, b);
	r6 = test_bit(2, b);
}
locations [a; b; c; 0:r0; 0:r1; 0:r2; 0:r3; 0:r4; 0:r5; 0:r6]
exists (a=0)
`, "0:r0=1; 0:r1=0; 0:r2=3; 0:r3=9; 0:r4=0; 0:r5=0; 0:r6=1; [a]=2; [b]=14; [c]=9;"},
		{"locks", `C locks
{}
P0(spinlock_t *l, int *x)
{
	int r0;
	int r1;
	int r2;
	spin_lock(l);
	r0 = spin_is_locked(l);
	r1 = spin_trylock(l);
	spin_unlock(l);
	r2 = spin_trylock(l);
	WRITE_ONCE(*x, r0 + r1 * 10 + r2 * 100);
}
locations [l; x]
exists (x=0)
`, "[l]=1; [x]=101;"},
		{"rcu", `C rcu
{}
P0(int *x, struct srcu_struct *s)
{
	int r0;
	rcu_read_lock();
	rcu_read_lock();
	WRITE_ONCE(*x, 1);
	rcu_read_unlock();
	rcu_read_unlock();
	synchronize_rcu();
	r0 = srcu_read_lock(s);
	srcu_read_unlock(s, r0);
	synchronize_srcu(s);
	smp_store_mb(*x, 2);
}
exists (x=2)
`, "[x]=2;"},
		{"x86-intel", `X86 intel
{ x=1; 0:EBX=3; }
 P0               ;
 MOV EAX,[x]      ;
 ADD EAX,EBX      ;
 LOCK XADD [x],EAX ;
 MOV ECX,$9       ;
 MOV EAX,$5       ;
 LOCK CMPXCHG [x],ECX ;
 MOV EDX,EAX      ;
 MOV EAX,$1       ;
 LOCK CMPXCHG [x],ECX ;
 LOCK INC [y]     ;
 LOCK OR [y],$6   ;
 XCHG [z],EBX     ;
 CMP EBX,$0       ;
 JNE L1           ;
 MOV [z],$42      ;
 L1:              ;
 MFENCE           ;
exists (0:EAX=5 /\ 0:EDX=5 /\ [x]=9 /\ [y]=7 /\ [z]=42 /\ 0:EBX=0)
`, "0:EAX=9; 0:EBX=0; 0:EDX=5; [x]=9; [y]=7; [z]=42;"},
		{"x86-att", `X86_64 att
{ int64_t t[3] = {4,5,6}; 0:rax=t; 0:rbx=2; }
 P0                        ;
 movq 0(%rax,%rbx,8),%rcx  ;
 shl $1,%rcx               ;
 movq %rcx,8(%rax)         ;
 andq $3,%rcx              ;
 movl $7,%edx              ;
 lock xaddq %rdx,(y)       ;
 endbr64                   ;
 cmp $0,%rdx               ;
 je L0                     ;
 movl $1,(z)               ;
 L0:                       ;
 ret                       ;
 movl $2,(z)               ;
locations [t[1]; y; z]
exists (0:rcx=0)
`, "0:rcx=0; [t[1]]=12; [y]=7; [z]=0;"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, m := range []Machine{SC, TSO, PSO} {
				for _, plain := range []bool{false, true} {
					res := run(t, c.src, m, report.Options{Plain: plain})
					require.Equal(t, []string{c.want}, stateLines(res), "%s plain=%v", m, plain)
					require.Empty(t, res.Stuck)
				}
			}
		})
	}
}
