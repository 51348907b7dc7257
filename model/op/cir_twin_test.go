package op

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cir"
)

// The operational explorer still lowers C with its own walker
// (compile_c.go), model/cir with another (issue #19: one lowering of C).
// Until op compiles from cir, this test holds the two to the same
// program where op can see it: cir accepts every C thread op compiles,
// and both put the thread's memory accesses (primitive calls, plain loads
// and stores, fences) on the same source lines in the same order.

// cirEnv is the test around a thread as model/cir asks for it, read from
// op's program: a location's index is its variable.
type cirEnv struct{ p *program }

func (e cirEnv) Shared(n string) bool { _, ok := e.p.byName[n]; return ok }

func (e cirEnv) Location(n string) (int, int, bool) {
	i, ok := e.p.byName[n]
	return i, 0, ok
}

func (e cirEnv) Primitive(n string) (*litmus.Primitive, bool) { return e.p.test.Primitive(n) }

func (e cirEnv) Errorf(pos litmus.Pos, f string, a ...any) error {
	return fmt.Errorf("%d: %s", pos, fmt.Sprintf(f, a...))
}

func (e cirEnv) Unsupported(pos litmus.Pos, f string, a ...any) error {
	return fmt.Errorf("%d: unsupported %s", pos, fmt.Sprintf(f, a...))
}

func (e cirEnv) Objects() bool { return true }

// accessLines returns the source lines of a thread's memory accesses in
// program order, a line repeated in a row counted once (op expands
// smp_store_mb, __set_bit and synchronize_rcu to two instructions).
func accessLines(f *litmus.File, pos []litmus.Pos) []int {
	var out []int
	for _, p := range pos {
		l := f.Position(p).Line
		if len(out) == 0 || out[len(out)-1] != l {
			out = append(out, l)
		}
	}
	return out
}

func TestCIRSameAccesses(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata", "../../../shared/corpus", "/work/paulmck/litmus"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".litmus") {
				files = append(files, p)
			}
			return nil
		})
	}
	threads := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		test, err := litmus.Parse(name, src)
		if err != nil || test.Arch != litmus.ArchC {
			continue
		}
		p, err := compile(test)
		if err != nil {
			continue // op's errors have their own tests
		}
		for i, pr := range test.Procs {
			threads++
			ct, err := cir.Compile(cirEnv{p}, pr)
			if err != nil {
				t.Errorf("%s P%d: op compiles it, cir does not: %v", name, pr.ID, err)
				continue
			}
			var opPos, cirPos []litmus.Pos
			for _, in := range p.threads[i].code {
				if in.op != opAssign && in.op != opBranch && in.op != opJump {
					opPos = append(opPos, in.pos)
				}
			}
			for _, in := range ct.Code {
				if in.Op == cir.Prim {
					cirPos = append(cirPos, in.Pos)
				}
			}
			if a, b := accessLines(test.File, opPos), accessLines(test.File, cirPos); !slices.Equal(a, b) {
				t.Errorf("%s P%d: memory accesses on lines %v in op, %v in cir", name, pr.ID, a, b)
			}
		}
	}
	if threads == 0 {
		t.Fatal("no C thread found in testdata")
	}
	t.Logf("%d C threads of %d files", threads, len(files))
}
