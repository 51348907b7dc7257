package main

import (
	"fmt"
	"strings"
)

// progress draws a one-line progress bar on stderr when it is a terminal
// and there are enough files to make waiting noticeable.
type progress struct {
	env   *Env
	total int
	n     int
	on    bool
}

// progressMinFiles is how many files make a progress bar worth drawing.
const progressMinFiles = 20

func newProgress(env *Env, total int, force bool) *progress {
	return &progress{env: env, total: total, on: force || (env.StderrIsTerminal && total >= progressMinFiles)}
}

func (p *progress) step(file string) {
	p.n++
	if !p.on {
		return
	}
	const width = 30
	fill := width * p.n / p.total
	name := file
	if len(name) > 40 {
		name = "..." + name[len(name)-37:]
	}
	fmt.Fprintf(p.env.Stderr, "\r[%s%s] %d/%d %-40s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.n, p.total, name)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.env.Stderr, "\r\033[K")
	}
}
