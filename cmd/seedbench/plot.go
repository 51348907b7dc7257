package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"runtime"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/invariants/dstref"
	"github.com/litmus-dev/litmus/invariants/nospace"
	"github.com/litmus-dev/litmus/invariants/tsflags"
	"github.com/litmus-dev/litmus/invariants/wfree"
)

func numCPU() int { return runtime.NumCPU() }

var (
	blue   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	orange = color.RGBA{R: 255, G: 127, B: 14, A: 255}
	grey   = color.RGBA{R: 140, G: 140, B: 140, A: 255}
)

// writePlots writes one PNG per measured table into dir and returns the
// files written.
func writePlots(dir string, r results) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	save := func(p *plot.Plot, name string, w vg.Length) error {
		f := filepath.Join(dir, name)
		if err := p.Save(w, 4*vg.Inch, f); err != nil {
			return fmt.Errorf("writing %s: %w", f, err)
		}
		files = append(files, f)
		return nil
	}
	if r.nospace != nil {
		p, err := nospacePlot(r.nospace)
		if err != nil {
			return files, err
		}
		if err := save(p, "nospace.png", 6*vg.Inch); err != nil {
			return files, err
		}
	}
	var groups []speedup
	if r.wfree != nil {
		for _, x := range r.wfree {
			groups = append(groups, speedup{fmt.Sprintf("004 wfree %dT", x.Threads), x.After / x.Before, 1 + x.Change.Q1/100, 1 + x.Change.Q3/100})
		}
		pr := wfree.PatchReqPerSec[1] / wfree.PatchReqPerSec[0]
		groups = append(groups, speedup{"004 patch", pr, pr, pr})
		p, err := speedupPlot("004 sock_wfree: after / before throughput", groups)
		if err != nil {
			return files, err
		}
		if err := save(p, "wfree.png", 5*vg.Inch); err != nil {
			return files, err
		}
	}
	if r.dstref != nil {
		groups := []speedup{
			{"002 this machine", r.dstref.After / r.dstref.Before, 1 + r.dstref.Change.Q1/100, 1 + r.dstref.Change.Q3/100},
			{"002 patch", dstref.PatchMpps[1] / dstref.PatchMpps[0], dstref.PatchMpps[1] / dstref.PatchMpps[0], dstref.PatchMpps[1] / dstref.PatchMpps[0]},
		}
		p, err := speedupPlot("002 dst refcount: after / before packets per second", groups)
		if err != nil {
			return files, err
		}
		if err := save(p, "dstref.png", 5*vg.Inch); err != nil {
			return files, err
		}
	}
	if r.tsflags != nil {
		var groups []speedup
		for _, x := range r.tsflags {
			name := "003 no writer"
			if x.Writer {
				name = "003 writer"
			}
			groups = append(groups, speedup{name, x.Before / x.After, x.Speedup.Q1, x.Speedup.Q3})
		}
		groups = append(groups, speedup{"003 patch", 1 + tsflags.PatchGain, 1 + tsflags.PatchGain, 1 + tsflags.PatchGain})
		p, err := speedupPlot("003 sk_tsflags: before / after cycles per packet", groups)
		if err != nil {
			return files, err
		}
		if err := save(p, "tsflags.png", 5*vg.Inch); err != nil {
			return files, err
		}
	}
	return files, nil
}

// nospacePlot draws the tcp_nospace table: cycles per call above baseline
// against the socket set, this machine beside the patch.
func nospacePlot(rows []nospace.Row) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "000 tcp_check_space(): cost above baseline"
	p.Y.Label.Text = hw.TickUnit + " per call"
	p.X.Label.Text = "sockets per thread (working set)"
	names := make([]string, len(rows))
	series := map[string]plotter.XYs{}
	for i, r := range rows {
		names[i] = fmt.Sprintf("%d (%s)", r.Sockets, workingSet(r.Sockets))
		x := float64(i)
		series["before"] = append(series["before"], plotter.XY{X: x, Y: r.Before})
		series["after"] = append(series["after"], plotter.XY{X: x, Y: r.After})
		if i < len(nospace.PatchTable) && nospace.PatchTable[i].Sockets == r.Sockets {
			series["patch before"] = append(series["patch before"], plotter.XY{X: x, Y: nospace.PatchTable[i].Before})
			series["patch after"] = append(series["patch after"], plotter.XY{X: x, Y: nospace.PatchTable[i].After})
		}
	}
	for _, s := range []struct {
		name  string
		col   color.Color
		dash  bool
		shape draw.GlyphDrawer
	}{
		{"before (this machine)", orange, false, draw.CircleGlyph{}},
		{"after (this machine)", blue, false, draw.CircleGlyph{}},
		{"before (patch, EPYC 7B13)", orange, true, draw.TriangleGlyph{}},
		{"after (patch, EPYC 7B13)", blue, true, draw.TriangleGlyph{}},
	} {
		key := map[string]string{
			"before (this machine)": "before", "after (this machine)": "after",
			"before (patch, EPYC 7B13)": "patch before", "after (patch, EPYC 7B13)": "patch after",
		}[s.name]
		l, pts, err := plotter.NewLinePoints(series[key])
		if err != nil {
			return nil, err
		}
		l.Color = s.col
		pts.Color = s.col
		pts.Shape = s.shape
		if s.dash {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	// The interquartile range of this machine's samples, as error bars.
	for _, e := range []struct {
		col    color.Color
		spread func(nospace.Row) hw.Spread
	}{
		{orange, func(r nospace.Row) hw.Spread { return r.BeforeSpread }},
		{blue, func(r nospace.Row) hw.Spread { return r.AfterSpread }},
	} {
		var pts iqrPoints
		for i, r := range rows {
			s := e.spread(r)
			pts = append(pts, iqrPoint{x: float64(i), y: s.Median, lo: s.Median - s.Q1, hi: s.Q3 - s.Median})
		}
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		bars.Color = e.col
		p.Add(bars)
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(names...)
	return p, nil
}

// iqrPoints are medians with their quartiles, for plotter.NewYErrorBars.
type iqrPoint struct{ x, y, lo, hi float64 }
type iqrPoints []iqrPoint

func (p iqrPoints) Len() int                        { return len(p) }
func (p iqrPoints) XY(i int) (float64, float64)     { return p[i].x, p[i].y }
func (p iqrPoints) YError(i int) (float64, float64) { return p[i].lo, p[i].hi }

// speedup is one bar: the ratio of medians, and the quartiles of the
// per-pair ratios (lo = hi = ratio where there is no spread, as for the
// patches' own figures), drawn as an error bar.
type speedup struct {
	name          string
	ratio, lo, hi float64
}

// speedupPlot draws one bar per group: how many times faster "after" is.
func speedupPlot(title string, gs []speedup) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "speedup (1 = no change)"
	vals := make(plotter.Values, len(gs))
	names := make([]string, len(gs))
	top := 1.0
	for i, g := range gs {
		vals[i] = g.ratio
		names[i] = g.name
		top = max(top, g.ratio)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(28))
	if err != nil {
		return nil, err
	}
	bars.Color = blue
	bars.LineStyle.Width = 0
	one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(gs)) - 0.5, Y: 1}})
	if err != nil {
		return nil, err
	}
	one.Color = grey
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(plotter.NewGrid(), bars, one)
	var spread iqrPoints
	for i, g := range gs {
		if g.lo < g.hi {
			spread = append(spread, iqrPoint{x: float64(i), y: g.ratio, lo: max(0, g.ratio-g.lo), hi: max(0, g.hi-g.ratio)})
			top = max(top, g.hi)
		}
	}
	if len(spread) > 0 {
		eb, err := plotter.NewYErrorBars(spread)
		if err != nil {
			return nil, err
		}
		eb.Color = orange
		p.Add(eb)
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    barTops(vals),
		Labels: ratioLabels(vals),
	})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = -0.5
		labels.TextStyle[i].YAlign = 0
	}
	p.Add(labels)
	p.NominalX(names...)
	p.Y.Min = 0
	p.Y.Max = top * 1.15
	return p, nil
}

func barTops(vals plotter.Values) plotter.XYs {
	xys := make(plotter.XYs, len(vals))
	for i, v := range vals {
		xys[i] = plotter.XY{X: float64(i), Y: v}
	}
	return xys
}

func ratioLabels(vals plotter.Values) []string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = fmt.Sprintf("%.2fx", v)
	}
	return s
}
