package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// shard is --shard K/N: the K-th of N deterministic slices of the files
// given, for a CI matrix of N jobs. File i (in the order check takes
// them: the arguments in order, each directory's files sorted) goes to
// slice i mod N + 1, so each slice samples every directory alike and the
// N slices together are every file exactly once.
type shard struct{ k, n int }

func (s *shard) String() string {
	if s == nil || s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.k, s.n)
}

func (s *shard) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	if !ok {
		return errors.New("want K/N, e.g. 2/8")
	}
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return errors.New("want K/N with 1 <= K <= N, e.g. 2/8")
	}
	s.k, s.n = k, n
	return nil
}

// pick returns s's slice of files (all of them without --shard).
func (s shard) pick(files []string) []string {
	if s.n <= 1 {
		return files
	}
	var out []string
	for i, f := range files {
		if i%s.n == s.k-1 {
			out = append(out, f)
		}
	}
	return out
}
