// Command gentests writes random small C litmus tests shaped to exercise
// herd's value equations: copies between threads, operations, branches on
// read values, self-copying cycles.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	n := flag.Int("n", 200, "tests")
	seed := flag.Int64("seed", 1, "seed")
	out := flag.String("o", "out", "directory")
	cycles := flag.Bool("cycles", false, "copying cycles")
	flag.Parse()
	rng := rand.New(rand.NewSource(*seed))
	os.MkdirAll(*out, 0o755)
	if *cycles {
		genCycles(rng, *n, *out)
		return
	}
	locs := []string{"x", "y", "z"}
	for i := 0; i < *n; i++ {
		nth := 2 + rng.Intn(2)
		var b strings.Builder
		name := fmt.Sprintf("gen%03d", i)
		fmt.Fprintf(&b, "C %s\n\n{\n", name)
		for _, l := range locs {
			if rng.Intn(4) == 0 {
				fmt.Fprintf(&b, "\tint %s=%d;\n", l, 1+rng.Intn(2))
			}
		}
		b.WriteString("}\n\n")
		var regsUsed []string
		for t := 0; t < nth; t++ {
			fmt.Fprintf(&b, "P%d(int *x, int *y, int *z)\n{\n\tint r1;\n\tint r2;\n\n", t)
			nst := 2 + rng.Intn(3)
			have := map[string]bool{}
			for s := 0; s < nst; s++ {
				l := locs[rng.Intn(len(locs))]
				reg := []string{"r1", "r2"}[rng.Intn(2)]
				other := "r1"
				if reg == "r1" {
					other = "r2"
				}
				val := func() string {
					if have[other] && rng.Intn(3) > 0 {
						switch rng.Intn(6) {
						case 0:
							return other + " + 0"
						case 1:
							return other + " + 1"
						case 2:
							return other + " ^ " + other
						default:
							return other
						}
					}
					return fmt.Sprint(rng.Intn(3))
				}
				switch rng.Intn(9) {
				case 0, 1:
					fmt.Fprintf(&b, "\t%s = READ_ONCE(*%s);\n", reg, l)
					have[reg] = true
				case 2:
					fmt.Fprintf(&b, "\t%s = *%s;\n", reg, l)
					have[reg] = true
				case 3, 4:
					fmt.Fprintf(&b, "\tWRITE_ONCE(*%s, %s);\n", l, val())
				case 5:
					fmt.Fprintf(&b, "\t*%s = %s;\n", l, val())
				case 6:
					if have[other] {
						fmt.Fprintf(&b, "\tif (%s == %d)\n\t\tWRITE_ONCE(*%s, %d);\n", other, rng.Intn(3), l, 1+rng.Intn(2))
					} else {
						fmt.Fprintf(&b, "\t%s = %d;\n\tif (READ_ONCE(*%s) == 0)\n\t\t%s = 0;\n", reg, 1+rng.Intn(2), l, reg)
						have[reg] = true
					}
				case 7:
					fmt.Fprintf(&b, "\t%s = xchg(%s, %s);\n", reg, l, val())
					have[reg] = true
				case 8:
					fmt.Fprintf(&b, "\tsmp_mb();\n")
				}
			}
			for _, r := range []string{"r1", "r2"} {
				if have[r] {
					regsUsed = append(regsUsed, fmt.Sprintf("%d:%s", t, r))
				}
			}
			b.WriteString("}\n\n")
		}
		if len(regsUsed) == 0 {
			b.WriteString("exists (x=0)\n")
		} else {
			var conj []string
			for _, r := range regsUsed {
				if rng.Intn(2) == 0 {
					conj = append(conj, fmt.Sprintf("%s=%d", r, rng.Intn(3)))
				} else {
					conj = append(conj, fmt.Sprintf("~%s=0", r))
				}
				if len(conj) == 2 {
					break
				}
			}
			fmt.Fprintf(&b, "exists (%s)\n", strings.Join(conj, " /\\ "))
		}
		os.WriteFile(filepath.Join(*out, name+".litmus"), []byte(b.String()), 0o644)
	}
}

// genCycles writes tests in which each thread reads one location and
// writes the next, around a ring, with a transformation on the way.
func genCycles(rng *rand.Rand, n int, out string) {
	locs := []string{"x", "y", "z"}
	for i := 0; i < n; i++ {
		nth := 2 + rng.Intn(2)
		var b strings.Builder
		name := fmt.Sprintf("cyc%03d", i)
		fmt.Fprintf(&b, "C %s\n\n{\n", name)
		for _, l := range locs[:nth] {
			if rng.Intn(3) == 0 {
				fmt.Fprintf(&b, "\tint %s=%d;\n", l, 1+rng.Intn(2))
			}
		}
		b.WriteString("}\n\n")
		var obs []string
		for t := 0; t < nth; t++ {
			in, outl := locs[t], locs[(t+1)%nth]
			fmt.Fprintf(&b, "P%d(int *%s, int *%s)\n{\n\tint r1;\n\tint r2;\n\n", t, in, outl)
			switch rng.Intn(3) {
			case 0:
				fmt.Fprintf(&b, "\tr1 = *%s;\n", in)
			case 1:
				fmt.Fprintf(&b, "\tr1 = READ_ONCE(*%s);\n", in)
			case 2:
				fmt.Fprintf(&b, "\tr1 = xchg(%s, %d);\n", in, rng.Intn(3))
			}
			val := "r1"
			switch rng.Intn(9) {
			case 0:
				val = "r1 + 0"
			case 1:
				val = "r1 + 1"
			case 2:
				fmt.Fprintf(&b, "\tr2 = r1;\n")
				val = "r2"
			case 3:
				fmt.Fprintf(&b, "\tr2 = 0;\n")
				val = "r1 + r2"
			case 4:
				fmt.Fprintf(&b, "\tif (r1 == %d)\n\t\tr1 = 2;\n", rng.Intn(3))
			case 5:
				fmt.Fprintf(&b, "\tr2 = r1 ^ r1;\n")
				val = "r1 + r2"
			}
			switch rng.Intn(3) {
			case 0:
				fmt.Fprintf(&b, "\t*%s = %s;\n", outl, val)
			case 1:
				fmt.Fprintf(&b, "\tWRITE_ONCE(*%s, %s);\n", outl, val)
			case 2:
				fmt.Fprintf(&b, "\tsmp_store_release(%s, %s);\n", outl, val)
			}
			b.WriteString("}\n\n")
			obs = append(obs, fmt.Sprintf("%d:r1", t))
		}
		switch rng.Intn(3) {
		case 0:
			fmt.Fprintf(&b, "exists (%s=0 /\\ %s=0)\n", obs[0], obs[1])
		case 1:
			fmt.Fprintf(&b, "exists (~%s=0 \\/ ~%s=0)\n", obs[0], obs[1])
		case 2:
			fmt.Fprintf(&b, "locations [%s]\nexists (%s=%s)\n", locs[0], obs[0], obs[1])
		}
		os.WriteFile(filepath.Join(out, name+".litmus"), []byte(b.String()), 0o644)
	}
}
