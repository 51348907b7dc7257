package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// x86Case is one instruction and how objdump prints it.
type x86Case struct {
	emit func(a *x86asm)
	want string
}

var x86Cases = []x86Case{
	{func(a *x86asm) { a.mov(8, xR(rAX, 8), xM(rBX, 0)) }, "mov (%rbx),%rax"},
	{func(a *x86asm) { a.mov(4, xR(rAX, 4), xM(r13, 0)) }, "mov 0x0(%r13),%eax"},
	{func(a *x86asm) { a.mov(8, xM(r12, 64), xR(r9, 8)) }, "mov %r9,0x40(%r12)"},
	{func(a *x86asm) { a.mov(4, xM(r15, 4096), xI(1)) }, "movl $0x1,0x1000(%r15)"},
	{func(a *x86asm) { a.mov(8, xM(rBP, -8), xI(-1)) }, "movq $0xffffffffffffffff,-0x8(%rbp)"},
	{func(a *x86asm) { a.mov(8, xR(r10, 8), xI(0x202020202020202)) }, "movabs $0x202020202020202,%r10"},
	{func(a *x86asm) { a.mov(8, xR(rSI, 8), xI(7)) }, "mov $0x7,%rsi"},
	{func(a *x86asm) { a.mov(4, xR(r11, 4), xI(7)) }, "mov $0x7,%r11d"},
	{func(a *x86asm) { a.mov(1, xM(rDI, 0), xR(rSI, 1)) }, "mov %sil,(%rdi)"},
	{func(a *x86asm) { a.mov(2, xR(rDX, 2), xMI(rAX, rBX, 8, 0)) }, "mov (%rax,%rbx,8),%dx"},
	{func(a *x86asm) { a.mov(8, xR(rCX, 8), xMI(noReg, rDX, 4, 16)) }, "mov 0x10(,%rdx,4),%rcx"},
	{func(a *x86asm) { a.mov(8, xR(rCX, 8), xMI(r13, r12, 1, 0)) }, "mov 0x0(%r13,%r12,1),%rcx"},
	{func(a *x86asm) { a.lock(); a.alu("add", 4, xM(rSP, -4), xI(0)) }, "lock addl $0x0,-0x4(%rsp)"},
	{func(a *x86asm) { a.lock(); a.alu("sub", 8, xM(r15, 8), xR(rBX, 8)) }, "lock sub %rbx,0x8(%r15)"},
	{func(a *x86asm) { a.alu("cmp", 8, xR(rAX, 8), xI(1)) }, "cmp $0x1,%rax"},
	{func(a *x86asm) { a.alu("and", 8, xR(rAX, 8), xI(0x1000)) }, "and $0x1000,%rax"},
	{func(a *x86asm) { a.alu("xor", 4, xR(rAX, 4), xR(rAX, 4)) }, "xor %eax,%eax"},
	{func(a *x86asm) { a.alu("or", 8, xR(rDX, 8), xM(r8, 0)) }, "or (%r8),%rdx"},
	{func(a *x86asm) { a.lock(); a.xadd(8, xM(rBX, 0), xR(rAX, 8)) }, "lock xadd %rax,(%rbx)"},
	{func(a *x86asm) { a.xchg(8, xM(r13, 128), xR(rAX, 8)) }, "xchg %rax,0x80(%r13)"},
	{func(a *x86asm) { a.xchg(4, xM(r13, 0), xR(rAX, 4)) }, "xchg %eax,0x0(%r13)"},
	{func(a *x86asm) { a.lock(); a.cmpxchg(8, xM(r12, 0), xR(rCX, 8)) }, "lock cmpxchg %rcx,(%r12)"},
	{func(a *x86asm) { a.cmpxchg(4, xM(rDI, 0), xR(rBX, 4)) }, "cmpxchg %ebx,(%rdi)"},
	{func(a *x86asm) { a.test(8, xR(rAX, 8), xR(rAX, 8)) }, "test %rax,%rax"},
	{func(a *x86asm) { a.test(4, xM(rBX, 0), xI(3)) }, "testl $0x3,(%rbx)"},
	{func(a *x86asm) { a.lock(); a.unary("inc", 8, xM(rBX, 0)) }, "lock incq (%rbx)"},
	{func(a *x86asm) { a.lock(); a.unary("dec", 4, xM(r9, 0)) }, "lock decl (%r9)"},
	{func(a *x86asm) { a.unary("neg", 8, xR(rCX, 8)) }, "neg %rcx"},
	{func(a *x86asm) { a.unary("not", 8, xR(rAX, 8)) }, "not %rax"},
	{func(a *x86asm) { a.shift("shl", 4, xR(rAX, 4), xI(2)) }, "shl $0x2,%eax"},
	{func(a *x86asm) { a.shift("sar", 8, xR(rBX, 8), xR(rCX, 1)) }, "sar %cl,%rbx"},
	{func(a *x86asm) { a.lock(); a.bitop("bts", 8, xM(rBX, 0), xI(3)) }, "lock btsq $0x3,(%rbx)"},
	{func(a *x86asm) { a.lock(); a.bitop("btr", 8, xM(rBX, 0), xR(rSI, 8)) }, "lock btr %rsi,(%rbx)"},
	{func(a *x86asm) { a.bitop("bt", 8, xM(r13, 8), xI(0)) }, "btq $0x0,0x8(%r13)"},
	{func(a *x86asm) { a.setcc("e", xR(rAX, 1)) }, "sete %al"},
	{func(a *x86asm) { a.setcc("nb", xR(rSI, 1)) }, "setae %sil"},
	{func(a *x86asm) { a.setcc("c", xM(rBX, 0)) }, "setb (%rbx)"},
	{func(a *x86asm) { a.cmovcc("c", 8, xR(rAX, 8), xR(rBX, 8)) }, "cmovb %rbx,%rax"},
	{func(a *x86asm) { a.movx(false, 8, xR(rBX, 8), 1, xR(rAX, 1)) }, "movzbq %al,%rbx"},
	{func(a *x86asm) { a.movx(true, 8, xR(rBX, 8), 4, xM(rAX, 0)) }, "movslq (%rax),%rbx"},
	{func(a *x86asm) { a.lea(8, xR(rDI, 8), xM(r13, 0x12345)) }, "lea 0x12345(%r13),%rdi"},
	{func(a *x86asm) { a.imul(8, xR(rAX, 8), xM(r15, 16)) }, "imul 0x10(%r15),%rax"},
	{func(a *x86asm) { a.imul3(8, xR(rAX, 8), xR(rAX, 8), 24) }, "imul $0x18,%rax,%rax"},
	{func(a *x86asm) { a.mfence() }, "mfence"},
	{func(a *x86asm) { a.lfence() }, "lfence"},
	{func(a *x86asm) { a.sfence() }, "sfence"},
	{func(a *x86asm) { a.pause() }, "pause"},
	{func(a *x86asm) { a.rdtsc() }, "rdtsc"},
	{func(a *x86asm) { a.syscall() }, "syscall"},
	{func(a *x86asm) { a.pushfq() }, "pushf"},
	{func(a *x86asm) { a.popfq() }, "popf"},
	{func(a *x86asm) { a.clflush(false, xM(rBX, 0)) }, "clflush (%rbx)"},
	{func(a *x86asm) { a.ret() }, "ret"},
	{func(a *x86asm) { a.nop() }, "nop"},
}

// objdump disassembles code for arch ("i386:x86-64" or "aarch64") and
// returns one line per instruction, without addresses and bytes; it skips
// t when the tool is missing.
func objdump(t *testing.T, tool, arch string, code []byte) []string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not installed", tool)
	}
	f := filepath.Join(t.TempDir(), "code.bin")
	require.NoError(t, os.WriteFile(f, code, 0o644))
	out, err := exec.Command(path, "-D", "-b", "binary", "-m", arch, f).CombinedOutput()
	require.NoError(t, err, "%s", out)
	lineRE := regexp.MustCompile(`^\s*[0-9a-f]+:\t[0-9a-f ]+\t(.*)$`)
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if m := lineRE.FindStringSubmatch(l); m != nil {
			s := strings.Join(strings.Fields(m[1]), " ")
			if i := strings.Index(s, " //"); i >= 0 {
				s = s[:i]
			}
			lines = append(lines, s)
		}
	}
	return lines
}

func TestX86EncodingMatchesObjdump(t *testing.T) {
	var code []byte
	for i, c := range x86Cases {
		a := newX86asm()
		c.emit(a)
		b, err := a.finish()
		require.NoError(t, err, "case %d (%s)", i, c.want)
		code = append(code, b...)
	}
	got := objdump(t, "objdump", "i386:x86-64", code)
	var want []string
	for _, c := range x86Cases {
		want = append(want, c.want)
	}
	require.Equal(t, want, got)
}

func TestX86Branches(t *testing.T) {
	a := newX86asm()
	top := a.newLabel()
	a.bind(top)
	a.nop()
	a.jcc("ne", top)
	end := a.newLabel()
	a.jmp(end)
	a.nop()
	a.bind(end)
	a.ret()
	code, err := a.finish()
	require.NoError(t, err)
	got := objdump(t, "objdump", "i386:x86-64", code)
	require.Equal(t, []string{"nop", "jne 0x0", "jmp 0xd", "nop", "ret"}, got)
}

func TestX86Errors(t *testing.T) {
	for _, f := range []func(a *x86asm){
		func(a *x86asm) { a.alu("add", 8, xM(rBX, 0), xI(1<<40)) },
		func(a *x86asm) { a.mov(8, xM(rBX, 0), xI(1<<40)) },
		func(a *x86asm) { a.mov(8, xMI(rBX, rSP, 1, 0), xI(1)) },
		func(a *x86asm) { a.jmp(99) },
		func(a *x86asm) { a.shift("shl", 8, xR(rAX, 8), xR(rBX, 1)) },
	} {
		a := newX86asm()
		f(a)
		_, err := a.finish()
		require.Error(t, err)
	}
}
