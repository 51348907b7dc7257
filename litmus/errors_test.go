package litmus

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// errorMarkerRE finds an expected error written in a test input, as
// (* ERROR "text" *) or // ERROR "text", with a Go-quoted text.
var errorMarkerRE = regexp.MustCompile(`ERROR ("(?:[^"\\]|\\.)*")`)

// TestErrorFiles parses each testdata/errors/*.litmus file and checks
// its errors against the ERROR markers: every marker's line must have an
// error containing the marker's text, and every error must be on a
// marked line.
func TestErrorFiles(t *testing.T) {
	checkErrorFiles(t, "testdata/errors/*.litmus", func(f string, src []byte) error {
		_, err := Parse(f, src)
		return err
	})
}

// TestResolveErrorFiles does the same for testdata/resolve/*.litmus,
// tests that parse but whose names or expectations do not resolve
// (ResolveNames, ResolveFinal, CheckExpectations).
func TestResolveErrorFiles(t *testing.T) {
	checkErrorFiles(t, "testdata/resolve/*.litmus", func(f string, src []byte) error {
		tst, err := Parse(f, src)
		if err != nil {
			return err
		}
		var list ErrorList
		list = append(list, ResolveNames(tst)...)
		list = append(list, ResolveFinal(tst)...)
		list = append(list, CheckExpectations(tst)...)
		return list.Err()
	})
}

func checkErrorFiles(t *testing.T, glob string, check func(f string, src []byte) error) {
	files, err := filepath.Glob(glob)
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			want := map[int]string{} // line -> expected substring
			for i, line := range strings.Split(string(src), "\n") {
				if m := errorMarkerRE.FindStringSubmatch(line); m != nil {
					s, err := strconv.Unquote(m[1])
					require.NoError(t, err, "%s:%d: bad marker", f, i+1)
					want[i+1] = s
				}
			}
			require.NotEmpty(t, want, "no ERROR markers in %s", f)
			perr := check(f, src)
			require.Error(t, perr)
			var list ErrorList
			require.True(t, errors.As(perr, &list), "error is not an ErrorList: %T", perr)
			got := map[int]string{}
			for _, e := range list {
				require.Equal(t, f, e.Pos.Filename)
				require.True(t, strings.HasPrefix(e.Error(), f+":"+strconv.Itoa(e.Pos.Line)+":"), "error %q is not file:line:col: msg", e.Error())
				got[e.Pos.Line] = e.Msg
				w, ok := want[e.Pos.Line]
				if !ok {
					t.Errorf("unexpected error %v", e)
					continue
				}
				require.Contains(t, e.Msg, w, "%s:%d: wrong message", f, e.Pos.Line)
			}
			for line, w := range want {
				if _, ok := got[line]; !ok {
					t.Errorf("%s:%d: missing error %q", f, line, w)
				}
			}
		})
	}
}
