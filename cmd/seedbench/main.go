// Command seedbench runs the hardware benchmarks of the four kernel patches
// in invariants/ on this machine and prints each table beside the numbers
// the patch published, optionally writing one plot per table.
//
// Usage:
//
//	go run ./cmd/seedbench [-quick] [-runs N] [-out DIR] [-only LIST] [-no-mb]
//
// -quick makes every measurement short (a few seconds in all), -runs sets
// the runs per measurement whose median is reported (11 by default, as in
// the tcp_nospace patch; 3 with -quick), -out writes nospace.png,
// wfree.png, dstref.png and tsflags.png into DIR, and -only limits the run
// to a comma-separated subset of nospace, wfree, dstref, tsflags; -no-mb
// leaves tcp_check_space()'s smp_mb() out of the nospace loops.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/invariants/dstref"
	"github.com/litmus-dev/litmus/invariants/nospace"
	"github.com/litmus-dev/litmus/invariants/tsflags"
	"github.com/litmus-dev/litmus/invariants/wfree"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// patchSizes are the tcp_nospace table's sockets per thread.
var patchSizes = []int{1, 256, 4096, 262144}

// socketSizes returns the patch's sizes plus one row the patch does not
// have, sized from the machine's last-level cache: enough sockets per
// thread that all threads' sets together are twice the LLC, so that the
// table has a row beyond it on any machine (the patch's effect appears
// only when struct socket misses the LLC). Without an LLC size (sysfs
// silent) the extra row is 1048576 sockets, 256 MB a thread.
func socketSizes(llc int64, threads int) []int {
	sizes := slices.Clone(patchSizes)
	extra := 1 << 20
	if llc > 0 && threads > 0 {
		per := (2*llc/int64(threads) + int64(nospace.SocketBytes) - 1) / int64(nospace.SocketBytes)
		extra = int((per + 4095) / 4096 * 4096)
	}
	if extra > sizes[len(sizes)-1] {
		sizes = append(sizes, extra)
	}
	return sizes
}

// results holds whatever was measured; nil fields were not run.
type results struct {
	nospace []nospace.Row
	wfree   []wfree.Result
	dstref  *dstref.Result
	tsflags []tsflags.Result
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("seedbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "short measurements (a few seconds in all)")
	runs := fs.Int("runs", 0, "runs per measurement; the median is reported (default 11, or 3 with -quick)")
	out := fs.String("out", "", "write one PNG plot per table into this directory")
	only := fs.String("only", "", "comma-separated subset of nospace,wfree,dstref,tsflags")
	noMb := fs.Bool("no-mb", false, "nospace: leave tcp_check_space()'s smp_mb() out of the loops (the first method's loop, to show what the barrier does)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "seedbench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	all := []string{"nospace", "wfree", "dstref", "tsflags"}
	want := all
	if *only != "" {
		want = strings.Split(*only, ",")
		for _, w := range want {
			if !slices.Contains(all, w) {
				fmt.Fprintf(stderr, "seedbench: -only: unknown benchmark %q\n", w)
				return 2
			}
		}
	}
	n := *runs
	if n <= 0 {
		n = 11
		if *quick {
			n = 3
		}
	}
	scale := 1
	if *quick {
		scale = 8
	}

	tpn := hw.Calibrate(20 * time.Millisecond)
	llc := hw.LLCBytes()
	sizes := socketSizes(llc, numCPU())
	fmt.Fprintf(stdout, "machine: %s\n", hw.Describe())
	fmt.Fprintf(stdout, "counter: %s at %.3f per ns; runs per measurement: %d (median)\n", hw.TickUnit, tpn, n)
	if llc > 0 {
		fmt.Fprintf(stdout, "last-level cache: %s (sysfs); the last nospace row is 2x that over %d threads\n\n", hw.FormatBytes(llc), numCPU())
	} else {
		fmt.Fprintf(stdout, "last-level cache: unknown (sysfs says nothing); the last nospace row is 256 MB a thread\n\n")
	}

	var r results
	start := time.Now()
	if slices.Contains(want, "nospace") {
		r.nospace = nospace.MeasureCheckSpace(nospace.Config{Sockets: sizes, Runs: n, Calls: (1 << 22) / scale, NoMb: *noMb})
		printNospace(stdout, r.nospace)
	}
	if slices.Contains(want, "wfree") {
		r.wfree = wfree.MeasureWfree(0, n, 2000000/scale)
		printWfree(stdout, r.wfree)
	}
	if slices.Contains(want, "dstref") {
		// Before moves only a few Mpps, and both sides spin, so a loaded
		// machine stretches it most: -quick cuts it further.
		d := dstref.MeasurePrequeue(n, 2000000/scale/scale)
		r.dstref = &d
		printDstref(stdout, d)
	}
	if slices.Contains(want, "tsflags") {
		r.tsflags = tsflags.MeasureRecv(n, 2000000/scale)
		printTsflags(stdout, r.tsflags)
	}
	fmt.Fprintf(stdout, "total %.1fs\n", time.Since(start).Seconds())

	if *out != "" {
		files, err := writePlots(*out, r)
		if err != nil {
			fmt.Fprintf(stderr, "seedbench: %v\n", err)
			return 1
		}
		for _, f := range files {
			fmt.Fprintf(stdout, "wrote %s\n", f)
		}
	}
	return 0
}

// workingSet formats a socket count as the patch does: the bytes the set
// occupies.
func workingSet(sockets int) string {
	b := sockets * nospace.SocketBytes
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%d MB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

func printNospace(w io.Writer, rows []nospace.Row) {
	fmt.Fprintf(w, "000 tcp: add tp->tcp_nospace -- %s per tcp_check_space() call above baseline\n", hw.TickUnit)
	fmt.Fprintln(w, "(interleaved 256-socket blocks, smp_mb() in both variants unless -no-mb; median [IQR] over all samples;")
	fmt.Fprintln(w, " after-before is per sample, with the sign test's p-value)")
	fmt.Fprintf(w, "%-18s %18s %18s %8s %24s %7s   %9s %9s\n", "sockets/thread", "before", "after", "baseline", "after-before", "p", "patch:bef", "patch:aft")
	spread := func(s hw.Spread) string { return fmt.Sprintf("%+7.1f [%5.1f]", s.Median, s.IQR()) }
	for i, r := range rows {
		patch := fmt.Sprintf("%9s %9s", "-", "-")
		if i < len(nospace.PatchTable) && nospace.PatchTable[i].Sockets == r.Sockets {
			p := nospace.PatchTable[i]
			patch = fmt.Sprintf("%+9.1f %+9.1f", p.Before, p.After)
		}
		fmt.Fprintf(w, "%-18s %18s %18s %8.1f %24s %7.0e   %s\n",
			fmt.Sprintf("%d (%s)", r.Sockets, workingSet(r.Sockets)), spread(r.BeforeSpread), spread(r.AfterSpread), r.Base,
			fmt.Sprintf("%s %d/%d", spread(r.Diff), r.Cheaper, r.Cheaper+r.Dearer), r.P, patch)
	}
	if len(rows) > 0 && rows[0].MissesWhy != "" {
		fmt.Fprintf(w, "LLC misses per call: unavailable (%s)\n", rows[0].MissesWhy)
	} else {
		fmt.Fprintf(w, "LLC read misses per call (baseline, before, after):\n")
		for _, r := range rows {
			fmt.Fprintf(w, "  %-16d %6.2f %6.2f %6.2f\n", r.Sockets, r.Misses[0], r.Misses[1], r.Misses[2])
		}
	}
	fmt.Fprint(w, "layout:")
	for _, f := range nospace.Layout() {
		fmt.Fprintf(w, " %s@%d(line %d)", f.Kernel, f.Offset, f.Line)
	}
	fmt.Fprint(w, "; struct socket's flags in their own allocation\n\n")
}

func printWfree(w io.Writer, rs []wfree.Result) {
	fmt.Fprintln(w, "004 UDP sock_wfree optimisations -- skb_set_owner_w()+sock_wfree() per second (median [IQR] of runs;")
	fmt.Fprintln(w, " change: median [IQR] over pairs of runs, before and after alternating)")
	fmt.Fprintf(w, "%-26s %16s %16s %18s\n", "case", "before", "after", "change")
	for _, r := range rs {
		fmt.Fprintf(w, "%-26s %8.2f M [%4.2f] %8.2f M [%4.2f] %+7.1f%% [%5.1f]\n", fmt.Sprintf("%d thread(s), one socket", r.Threads),
			r.Before, r.BeforeSpread.IQR(), r.After, r.AfterSpread.IQR(), r.Change.Median, r.Change.IQR())
		if r.Threads == 1 {
			fmt.Fprintf(w, "%-26s %16.1f %16.1f\n", "  cycles per iteration", r.BeforeCycles, r.AfterCycles)
		}
	}
	p := wfree.PatchReqPerSec
	fmt.Fprintf(w, "%-26s %10.2f M %15.2f M %+7.1f%%  (UDP req/s over a dummy netdev)\n\n", "patch", p[0]/1e6, p[1]/1e6, pct(p[1], p[0]))
}

func printDstref(w io.Writer, r dstref.Result) {
	fmt.Fprintln(w, "002 tcp: remove dst refcount false sharing for prequeue mode -- packets per second, 2 CPUs")
	fmt.Fprintln(w, "(median [IQR] of runs; change: median [IQR] over pairs of runs, before and after alternating)")
	fmt.Fprintf(w, "%-26s %16s %16s %18s\n", "case", "before", "after", "change")
	fmt.Fprintf(w, "%-26s %8.2f M [%4.2f] %8.2f M [%4.2f] %+7.1f%% [%5.1f]\n", "this machine",
		r.Before, r.BeforeSpread.IQR(), r.After, r.AfterSpread.IQR(), r.Change.Median, r.Change.IQR())
	p := dstref.PatchMpps
	fmt.Fprintf(w, "%-26s %10.2f M %15.2f M %+7.1f%%  (40GbE, 95%% -> 35%% CPU)\n\n", "patch", p[0], p[1], pct(p[1], p[0]))
}

func printTsflags(w io.Writer, rs []tsflags.Result) {
	fmt.Fprintf(w, "003 tcp: Don't call tcp_update_recv_tstamps() if not needed -- %s per received packet\n", hw.TickUnit)
	fmt.Fprintln(w, "(median [IQR] of runs; speedup: median [IQR] over pairs of runs, before and after alternating)")
	fmt.Fprintf(w, "%-36s %14s %14s %16s\n", "case", "before", "after", "speedup")
	for _, r := range rs {
		c := "no writer on sk_forward_alloc"
		if r.Writer {
			c = "another CPU writes sk_forward_alloc"
		}
		fmt.Fprintf(w, "%-36s %7.1f [%4.1f] %7.1f [%4.1f] %7.2fx [%4.2f]\n", c,
			r.Before, r.BeforeSpread.IQR(), r.After, r.AfterSpread.IQR(), r.Speedup.Median, r.Speedup.IQR())
	}
	fmt.Fprintf(w, "%-36s %29s %7.2fx  (tcp_rr throughput, whole stack)\n\n", "patch", "", 1+tsflags.PatchGain)
}

func pct(after, before float64) float64 { return (after/before - 1) * 100 }
