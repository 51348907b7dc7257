package harness

import "fmt"

func (p *program) genA64C(o Options, nthreads, me int, ct *cThread, inits map[int]value, obs []int) ([]byte, error) {
	return nil, fmt.Errorf("arm64 code generation is not written yet")
}
