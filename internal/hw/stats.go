package hw

import (
	"math"
	"slices"
)

// Quantile returns the q-quantile (0 <= q <= 1) of xs by linear
// interpolation between order statistics (R's type 7, numpy's default),
// without reordering xs; 0 for an empty slice.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	h := q * float64(len(s)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}

// Spread is a sample's median and interquartile range.
type Spread struct {
	Median, Q1, Q3 float64
	N              int
}

// IQR is Q3 - Q1.
func (s Spread) IQR() float64 { return s.Q3 - s.Q1 }

// SpreadOf returns xs's median and quartiles.
func SpreadOf(xs []float64) Spread {
	return Spread{Median: Quantile(xs, 0.5), Q1: Quantile(xs, 0.25), Q3: Quantile(xs, 0.75), N: len(xs)}
}

// SignTest is the two-sided sign test of the hypothesis that paired
// differences ds have median zero: the p-value of seeing as many
// positive (or negative) differences among the non-zero ones if each
// sign were a fair coin. It uses the exact binomial up to 1000 non-zero
// differences and the normal approximation (with continuity correction)
// above; 1 when there is no non-zero difference.
func SignTest(ds []float64) (pos, neg int, p float64) {
	for _, d := range ds {
		switch {
		case d > 0:
			pos++
		case d < 0:
			neg++
		}
	}
	n := pos + neg
	if n == 0 {
		return 0, 0, 1
	}
	k := min(pos, neg)
	if n > 1000 {
		z := (float64(n)/2 - float64(k) - 0.5) / math.Sqrt(float64(n)/4)
		return pos, neg, math.Min(1, math.Erfc(z/math.Sqrt2))
	}
	// P(X <= k) for X ~ Binomial(n, 1/2), doubled.
	var sum float64
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	for i := 0; i <= k; i++ {
		sum += math.Exp(lg(n) - lg(i) - lg(n-i) - float64(n)*math.Ln2)
	}
	return pos, neg, math.Min(1, 2*sum)
}
