package litmus

import (
	"fmt"
	"sort"
)

// Pos is a compact source position: the byte offset in its File plus one.
// The zero Pos (NoPos) means "no position".
type Pos int

// NoPos is the zero Pos.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Position is a decoded source position, printed as file:line:col.
type Position struct {
	Filename string
	Offset   int // byte offset, starting at 0
	Line     int // starting at 1
	Column   int // byte column, starting at 1
}

// IsValid reports whether the position is valid.
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col", "file" or "-".
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// File maps the Pos values of one source file to line and column.
type File struct {
	Name  string
	Size  int
	lines []int // offset of the first byte of each line
}

// NewFile returns a File for src, named name.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Size: len(src), lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// Pos returns the Pos of byte offset off.
func (f *File) Pos(off int) Pos { return Pos(off + 1) }

// Position decodes p. A nil File or NoPos gives an invalid Position.
func (f *File) Position(p Pos) Position {
	if f == nil || !p.IsValid() {
		if f != nil {
			return Position{Filename: f.Name}
		}
		return Position{}
	}
	off := int(p) - 1
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Position{Filename: f.Name, Offset: off, Line: i + 1, Column: off - f.lines[i] + 1}
}

// Error is one syntax error at a position.
type Error struct {
	Pos Position
	Msg string
}

// Error implements error as "file:line:col: msg".
func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of *Error, in source order.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{pos, msg}) }

// Len, Less and Swap sort by position.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// Sort sorts the list by position.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error prints the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list, else the list itself.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
