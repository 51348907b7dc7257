package cat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/stretchr/testify/require"
)

// corpus is the shared conformance corpus, beside the repository.
var corpus = shared.Corpus()

// TestParseCorpusModels parses every cat and bell file of the shared
// corpus: the kernel's LKMM files, herd's stock architecture models and
// Dat3M's.
func TestParseCorpusModels(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no shared corpus")
	}
	n := 0
	err := filepath.Walk(corpus, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !(strings.HasSuffix(path, ".cat") || strings.HasSuffix(path, ".bell")) {
			return err
		}
		n++
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		_, err = Parse(path, src)
		require.NoError(t, err, path)
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 40)
}

func TestParseShapes(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let a = b | c ; d", "(b | (c ; d))"},
		{"let a = b ; c | d", "((b ; c) | d)"},
		{"let a = b & c \\ d", "((b & c) \\ d)"},
		{"let a = b \\ c & d", "(b \\ (c & d))"},
		{"let a = ~b ; c", "(~(b) ; c)"},
		{"let a = r* ; s", "(*(r) ; s)"},
		{"let a = A * B ; r", "((A * B) ; r)"},
		{"let a = r^-1 | s+", "(^-1(r) | +(s))"},
		{"let a = [R] ; po ; [W]", "([](R) ; po ; [](W))"},
		{"let a = f(x, y) | g x", "(f((x , y)) | g(x))"},
		{"let a = map f (LF \\ range(r))", "map(f)((LF \\ range(r)))"},
		{"let a = x ++ 0", "(x ++ 0)"},
		{"let a = (_ * B) & po", "((_ * B) & po)"},
	}
	for _, tt := range tests {
		m, err := Parse("t.cat", []byte(tt.src))
		require.NoError(t, err, tt.src)
		require.Len(t, m.Stmts, 1)
		require.Equal(t, tt.want, dump(m.Stmts[0].(*Let).Bindings[0].X), tt.src)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let a = b |", "t.cat:1:12: expected expression, found end of file"},
		{"acyclic po as", "t.cat:1:14: expected name, found end of file"},
		{"let a = 'x", ""},
		{"let = b", "t.cat:1:5: expected name or _, found \"=\""},
		{"include foo", "t.cat:1:9: expected file name string, found name foo"},
		{"let a = b\nlet c = d $ e", "t.cat:2:11: illegal character '$' (U+0024)"},
		{"(* unterminated", "t.cat:1:1: comment not terminated"},
	}
	for _, tt := range tests {
		_, err := Parse("t.cat", []byte(tt.src))
		if tt.want == "" {
			require.NoError(t, err, tt.src)
			continue
		}
		require.Error(t, err, tt.src)
		require.Contains(t, err.Error(), tt.want, tt.src)
	}
}

// dump prints an expression fully parenthesised, for the shape tests.
func dump(e Expr) string {
	switch e := e.(type) {
	case *Var:
		return e.Name
	case *Empty:
		return "0"
	case *Universe:
		return "_"
	case *Tag:
		return "'" + e.Name
	case *Op1:
		return e.Op.String() + "(" + dump(e.X) + ")"
	case *Op:
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, dump(a))
		}
		return "(" + strings.Join(parts, " "+e.Op.String()+" ") + ")"
	case *App:
		return dump(e.Fun) + "(" + dump(e.Arg) + ")"
	}
	return "?"
}
