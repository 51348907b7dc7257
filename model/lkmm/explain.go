package lkmm

import (
	"fmt"
	"strings"
)

// describe prints an event the way herd's diagrams label them: the
// thread, the kind with its annotation, the location and the value.
func (x *execution) describe(p *program, i int) string {
	e := x.ev[i]
	var who string
	if e.thread < 0 {
		who = "init"
	} else {
		who = fmt.Sprintf("P%d", e.thread)
	}
	var b strings.Builder
	switch e.kind {
	case evR:
		b.WriteString("R")
	case evW:
		b.WriteString("W")
	case evF:
		return fmt.Sprintf("%s: F[%s]", who, fenceText[e.fence])
	case evSync:
		return fmt.Sprintf("%s: SRCU[sync-srcu] %s", who, p.names[e.loc])
	}
	if ann := tagText(e.tags); ann != "" {
		b.WriteString("[" + ann + "]")
	}
	fmt.Fprintf(&b, " %s=%s", p.names[e.loc], e.val.format(p.names))
	return who + ": " + b.String()
}

func tagText(t tag) string {
	var parts []string
	names := []struct {
		t tag
		s string
	}{{tOnce, "once"}, {tAcquire, "acquire"}, {tRelease, "release"}, {tMb, "mb"}, {tNoreturn, "noreturn"},
		{tLKR, "LKR"}, {tLKW, "LKW"}, {tUL, "UL"}, {tLF, "LF"}, {tRL, "RL"}, {tRU, "RU"},
		{tSrcuLock, "srcu-lock"}, {tSrcuUnlock, "srcu-unlock"}}
	for _, n := range names {
		if t&n.t != 0 {
			parts = append(parts, n.s)
		}
	}
	return strings.Join(parts, ",")
}

// label names the relation that best explains the edge a -> b of a
// failed check.
func (x *execution) label(rel *relations, a, b int) string {
	if rel == nil {
		return "->"
	}
	ext := x.thread[a] != x.thread[b]
	named := []struct {
		r    Rel
		name string
	}{{rel.rf, "rf"}, {rel.co, "co"}, {rel.fr, "fr"}, {rel.rmw, "rmw"}, {rel.ppo, "ppo"},
		{rel.prop, "prop"}, {rel.strongFence, "strong-fence"}, {rel.hb, "hb"}, {rel.pb, "pb"}, {rel.rb, "rb"}}
	for _, nr := range named {
		if nr.r.b != nil && nr.r.has(a, b) {
			if ext && (nr.name == "rf" || nr.name == "co" || nr.name == "fr") {
				return nr.name + "e"
			}
			return nr.name
		}
	}
	if rel.po.b != nil && rel.po.has(a, b) {
		return "po"
	}
	return "->"
}

// explain says in words why the model rejected x.
func (x *execution) explain(p *program, out outcome) string {
	if out.bad.b == nil {
		return "rejected by " + out.failed
	}
	if cyc := out.bad.findCycle(); cyc != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "rejected by %s: cycle ", out.failed)
		for k, e := range cyc {
			next := cyc[(k+1)%len(cyc)]
			fmt.Fprintf(&b, "%s -%s-> ", x.describe(p, e), x.label(out.rel, e, next))
		}
		b.WriteString(x.describe(p, cyc[0]))
		return b.String()
	}
	for i := 0; i < x.n; i++ {
		if out.bad.has(i, i) {
			return fmt.Sprintf("rejected by %s: %s is ordered before itself", out.failed, x.describe(p, i))
		}
	}
	if pr := out.bad.pairs(); len(pr) > 0 {
		return fmt.Sprintf("rejected by %s: %s -%s-> %s", out.failed, x.describe(p, pr[0][0]),
			x.label(out.rel, pr[0][0], pr[0][1]), x.describe(p, pr[0][1]))
	}
	return "rejected by " + out.failed
}
