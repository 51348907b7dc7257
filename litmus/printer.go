package litmus

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Fprint writes t to w as canonical text in the test's own dialect: C
// tests in herd's layout with tab indentation, X86 tests with aligned '|'
// columns. The (* *) comments outside the code are kept, each on its own
// line before the next part of the test that follows it in the source;
// "//" and "/* */" comments inside C code are dropped.
func Fprint(w io.Writer, t *Test) error {
	_, err := w.Write(Format(t))
	return err
}

// Format returns the canonical text of t (see Fprint).
func Format(t *Test) []byte {
	pr := &printer{t: t}
	pr.test()
	return pr.buf.Bytes()
}

type printer struct {
	buf      bytes.Buffer
	t        *Test
	comments int // index of the next comment to print
}

func (pr *printer) printf(format string, args ...any) { fmt.Fprintf(&pr.buf, format, args...) }

// flush prints the comments that start before pos, each on its own line
// with the given indentation. NoPos flushes them all.
func (pr *printer) flush(pos Pos, indent string) {
	for pr.comments < len(pr.t.Comments) {
		c := pr.t.Comments[pr.comments]
		if pos.IsValid() && c.Start >= pos {
			return
		}
		pr.printf("%s(*%s*)\n", indent, c.Text)
		pr.comments++
	}
}

// trailing prints, at the end of the current line, the comments that
// start on the source line where a node ends (end is its End) and before
// the next node (next, or NoPos when there is none), as in
// "int *v=w; (* List head is v. *)".
func (pr *printer) trailing(end, next Pos) {
	f := pr.t.File
	if f == nil || !end.IsValid() {
		return
	}
	line := f.Position(end - 1).Line
	for pr.comments < len(pr.t.Comments) {
		c := pr.t.Comments[pr.comments]
		if c.Start < end || next.IsValid() && c.Start >= next || f.Position(c.Start).Line != line || strings.Contains(c.Text, "\n") {
			return
		}
		pr.printf(" (*%s*)", c.Text)
		pr.comments++
	}
}

func (pr *printer) test() {
	t := pr.t
	pr.flush(t.ArchPos, "")
	pr.printf("%s %s\n", t.Arch, t.Name)
	if t.Doc != "" {
		pr.printf("\"%s\"\n", t.Doc)
	}
	for _, m := range t.Meta {
		if m.Key == "" {
			pr.printf("%s\n", m.Value)
			continue
		}
		pr.printf("%s=%s\n", m.Key, m.Value)
	}
	pr.flush(t.InitPos, "")
	pr.printf("\n")
	pr.init()
	pr.printf("\n")
	if t.Arch == ArchC {
		for _, p := range t.Procs {
			pr.flush(p.ProcPos, "")
			pr.cproc(p)
			pr.printf("\n")
		}
	} else {
		if len(t.Procs) > 0 {
			pr.flush(t.Procs[0].ProcPos, "")
		}
		if t.Arch == ArchLISA {
			pr.lisaTable()
		} else {
			pr.x86Table()
		}
		pr.printf("\n")
	}
	pr.final()
	pr.flush(NoPos, "")
}

func (pr *printer) init() {
	t := pr.t
	if len(t.Init) == 0 && len(t.Objects) == 0 {
		pr.flush(t.InitPos+1, "")
		pr.printf("{}\n")
		return
	}
	pr.printf("{\n")
	for i, it := range t.Init {
		pr.flush(it.ItemPos, "\t")
		pr.printf("\t%s;", pr.initItem(it))
		next := NoPos
		if i+1 < len(t.Init) {
			next = t.Init[i+1].Pos()
		}
		pr.trailing(it.End(), next)
		pr.printf("\n")
	}
	for _, o := range t.Objects {
		pr.printf("\t%s;\n", objectString(o))
	}
	pr.printf("}\n")
}

func (pr *printer) initItem(it *InitItem) string {
	var b strings.Builder
	if it.Type != "" {
		b.WriteString(it.Type)
		if !strings.HasSuffix(it.Type, "*") {
			b.WriteByte(' ')
		}
	}
	switch {
	case it.Bracket:
		b.WriteString("[" + it.Name + "]")
	case it.Proc >= 0:
		b.WriteString(strconv.Itoa(it.Proc) + ":" + it.Name)
	default:
		b.WriteString(it.Name)
	}
	if it.Len > 0 {
		b.WriteString("[" + strconv.Itoa(it.Len) + "]")
	}
	if it.Value != nil {
		if pr.t.Arch == ArchC {
			b.WriteString(" = ")
		} else {
			b.WriteString("=")
		}
		b.WriteString(ExprString(it.Value))
	}
	return b.String()
}

func (pr *printer) cproc(p *Proc) {
	var params []string
	for _, prm := range p.Params {
		params = append(params, declString(prm.Type, prm.Name.Name))
	}
	pr.printf("P%d(%s)\n", p.ID, strings.Join(params, ", "))
	if p.Body == nil {
		pr.printf("{\n}\n")
		return
	}
	pr.block(p.Body, "")
	pr.printf("\n")
}

// declString writes a declaration "int *x" or "int x".
func declString(typ, name string) string {
	if strings.HasSuffix(typ, "*") {
		return typ + name
	}
	return typ + " " + name
}

// block prints { List } with the '{' at the current position and the '}'
// at indent, without a final newline.
func (pr *printer) block(b *BlockStmt, indent string) {
	pr.printf("{\n")
	inner := indent + "\t"
	for i, s := range b.List {
		// Keep a blank line after the leading declarations, as the
		// kernel's tests do.
		if i > 0 {
			if _, ok := b.List[i-1].(*DeclStmt); ok {
				if _, ok := s.(*DeclStmt); !ok {
					pr.printf("\n")
				}
			}
		}
		pr.printf("%s", inner)
		pr.stmt(s, inner)
		pr.printf("\n")
	}
	pr.printf("%s}", indent)
}

// stmt prints s at the current position; nested lines use indent.
func (pr *printer) stmt(s Stmt, indent string) {
	switch s := s.(type) {
	case *BlockStmt:
		pr.block(s, indent)
	case *DeclStmt, *AssignStmt, *ExprStmt:
		pr.printf("%s;", simpleString(s))
	case *IfStmt:
		pr.printf("if (%s)", ExprString(s.Cond))
		pr.body(s.Then, indent)
		if s.Else != nil {
			if _, ok := s.Then.(*BlockStmt); ok {
				pr.printf(" ")
			} else {
				pr.printf("\n%s", indent)
			}
			pr.printf("else")
			if elif, ok := s.Else.(*IfStmt); ok {
				pr.printf(" ")
				pr.stmt(elif, indent)
			} else {
				pr.body(s.Else, indent)
			}
		}
	case *WhileStmt:
		pr.printf("while (%s)", ExprString(s.Cond))
		pr.body(s.Body, indent)
	case *DoWhileStmt:
		pr.printf("do")
		pr.body(s.Body, indent)
		if _, ok := s.Body.(*BlockStmt); ok {
			pr.printf(" ")
		} else {
			pr.printf("\n%s", indent)
		}
		pr.printf("while (%s);", ExprString(s.Cond))
	case *ForStmt:
		pr.printf("for (")
		if s.Init != nil {
			pr.printf("%s", simpleString(s.Init))
		}
		pr.printf(";")
		if s.Cond != nil {
			pr.printf(" %s", ExprString(s.Cond))
		}
		pr.printf(";")
		if s.Post != nil {
			pr.printf(" %s", simpleString(s.Post))
		}
		pr.printf(")")
		pr.body(s.Body, indent)
	case *BranchStmt:
		pr.printf("%s;", s.Tok)
	case *EmptyStmt:
		pr.printf(";")
	}
}

// body prints the statement under if, else, while, do or for: a block
// on the same line, anything else indented on the next line.
func (pr *printer) body(s Stmt, indent string) {
	if b, ok := s.(*BlockStmt); ok {
		pr.printf(" ")
		pr.block(b, indent)
		return
	}
	pr.printf("\n%s\t", indent)
	pr.stmt(s, indent+"\t")
}

// simpleString formats a declaration, assignment or expression statement
// without its ';'.
func simpleString(s Stmt) string {
	switch s := s.(type) {
	case *DeclStmt:
		d := declString(s.Type, s.Name.Name)
		if s.Init != nil {
			d += " = " + ExprString(s.Init)
		}
		return d
	case *AssignStmt:
		if s.RHS == nil {
			return ExprString(s.LHS) + s.Op
		}
		return ExprString(s.LHS) + " " + s.Op + " " + ExprString(s.RHS)
	case *ExprStmt:
		if s.Void {
			return "(void)" + ExprString(s.X)
		}
		return ExprString(s.X)
	}
	return ""
}

// ExprString formats a C expression as the printer writes it. Parentheses
// are those of the source (ParenExpr); no others are added.
func ExprString(e Expr) string { return render(e, writeExpr) }

// render returns what write writes of v.
func render[T any](v T, write func(*strings.Builder, T)) string {
	var b strings.Builder
	write(&b, v)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Ident:
		b.WriteString(e.Name)
	case *IntLit:
		b.WriteString(e.Text)
	case *UnaryExpr:
		b.WriteString(e.Op)
		x := ExprString(e.X)
		switch e.X.(type) {
		case *BinaryExpr, *CondExpr:
			// An operand built without its ParenExpr (a code
			// test's lowering: "!(r == o)" for
			// !atomic_try_cmpxchg(...)); a parsed one has it.
			x = "(" + x + ")"
		}
		// Keep "- -1" and "& &x" from fusing into "--1" and "&&x".
		if (e.Op == "-" || e.Op == "+" || e.Op == "&") && strings.HasPrefix(x, e.Op) {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	case *BinaryExpr:
		writeExpr(b, e.X)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Y)
	case *CondExpr:
		writeExpr(b, e.Cond)
		b.WriteString(" ? ")
		writeExpr(b, e.X)
		b.WriteString(" : ")
		writeExpr(b, e.Y)
	case *CallExpr:
		b.WriteString(e.Fun.Name + "(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case *ParenExpr:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(")")
	case *OffsetExpr:
		b.WriteString(OffsetBuiltin + "(")
		writeExpr(b, e.Ptr)
		b.WriteString(", ")
		writeExpr(b, e.Off)
		b.WriteString(")")
	case *IndexExpr:
		writeExpr(b, e.X)
		b.WriteString("[")
		writeExpr(b, e.Index)
		b.WriteString("]")
	case *CastExpr:
		b.WriteString("(" + e.Type + ")")
		writeExpr(b, e.X)
	case *BraceList:
		b.WriteString("{")
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(",")
			}
			writeExpr(b, x)
		}
		b.WriteString("}")
	}
}

// x86Table prints the code as aligned columns.
func (pr *printer) x86Table() {
	pr.columns(func(p *Proc) (cells []string) {
		for _, in := range p.Code {
			cells = append(cells, InstrString(in))
		}
		return cells
	})
}

// columns prints one column per thread, headed P<id>, its cells the
// strings cells returns for the thread, aligned and separated by "|",
// each row ending in " ;" as herd writes assembly and LISA code.
func (pr *printer) columns(cells func(p *Proc) []string) {
	t := pr.t
	cols := make([][]string, len(t.Procs))
	rows := 0
	for i, p := range t.Procs {
		cols[i] = append([]string{fmt.Sprintf("P%d", p.ID)}, cells(p)...)
		rows = max(rows, len(cols[i]))
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		for _, s := range c {
			widths[i] = max(widths[i], len(s))
		}
	}
	for r := 0; r < rows; r++ {
		var line strings.Builder
		for i, c := range cols {
			s := ""
			if r < len(c) {
				s = c[r]
			}
			if i > 0 {
				line.WriteString(" |")
			}
			line.WriteString(" " + s + strings.Repeat(" ", widths[i]-len(s)))
		}
		pr.printf("%s ;\n", line.String())
	}
}

// InstrString formats one instruction or label line.
func InstrString(in *Instr) string {
	if in.Op == "" {
		return in.Label + ":"
	}
	var b strings.Builder
	if in.Prefix != "" {
		// Write the prefix in the mnemonic's case: "LOCK ADD", "lock xaddl".
		if strings.ToLower(in.Op) == in.Op {
			b.WriteString(strings.ToLower(in.Prefix) + " ")
		} else {
			b.WriteString(in.Prefix + " ")
		}
	}
	b.WriteString(in.Op)
	// AArch64, RISCV and PPC operands are canonical; write them in lower
	// case after a lower-case mnemonic, "ldr w0,[x1]", all but the
	// names that are case-sensitive (labels, locations).
	lower := in.Mnemonic != "" && strings.ToLower(in.Op) == in.Op
	for i, a := range in.Args {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(",")
		}
		if lower && a.Kind != OpdLabel && a.Kind != OpdSym {
			b.WriteString(strings.ToLower(a.Text))
			continue
		}
		b.WriteString(a.Text)
	}
	return b.String()
}

// final prints the final section: locations, filter, condition, then our
// invariants.
func (pr *printer) final() {
	t := pr.t
	if t.Locations != nil {
		var ls []string
		for _, l := range t.Locations {
			switch {
			case l.Type == "*":
				ls = append(ls, LocString(l)+"*")
			case l.Type != "":
				ls = append(ls, LocString(l)+" "+l.Type)
			default:
				ls = append(ls, LocString(l))
			}
		}
		pr.printf("locations [%s]\n", strings.Join(ls, "; "))
	}
	if t.Filter != nil {
		pr.flush(t.Filter.Pos(), "")
		pr.printf("filter %s", PropString(t.Filter))
		pr.trailing(t.Filter.End(), NoPos)
		pr.printf("\n")
	}
	if t.Cond != nil {
		pr.flush(t.Cond.Pos(), "")
		pr.printf("%s %s", t.Cond.Quant, PropString(t.Cond.Prop))
		pr.trailing(t.Cond.End(), NoPos)
		pr.printf("\n")
	}
	for _, inv := range t.Invariants {
		pr.flush(inv.Pos(), "")
		pr.printf("invariant %s", PropString(inv.Prop))
		pr.trailing(inv.End(), NoPos)
		pr.printf("\n")
	}
}

// LocString formats a location of the final section.
func LocString(l *LocRef) string {
	var s string
	switch {
	case l.Bracket:
		s = "[" + l.Name + "]"
	case l.Proc >= 0:
		s = strconv.Itoa(l.Proc) + ":" + l.Name
	default:
		s = l.Name
	}
	if l.Index >= 0 {
		s += "[" + strconv.Itoa(l.Index) + "]"
	}
	return s
}

// valueString formats the right-hand side of a condition atom.
func valueString(v *Value) string {
	switch {
	case v.Loc != nil:
		return LocString(v.Loc)
	case v.IsInt && v.Text != "":
		return v.Text
	case v.IsInt:
		return strconv.FormatInt(v.Int, 10)
	}
	return v.Sym
}

// PropString formats a proposition of the condition language. It writes
// into one buffer, so that a long chain of conjuncts (a left-deep tree)
// prints in linear time.
func PropString(p Prop) string { return render(p, writeProp) }

func writeProp(b *strings.Builder, p Prop) {
	switch p := p.(type) {
	case *AtomProp:
		b.WriteString(LocString(p.Loc))
		b.WriteString(p.Op)
		b.WriteString(valueString(p.Val))
	case *NotProp:
		b.WriteString("~")
		writeProp(b, p.X)
	case *BinProp:
		writeProp(b, p.X)
		b.WriteString(" " + p.Op + " ")
		writeProp(b, p.Y)
	case *BoolProp:
		if p.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *ParenProp:
		b.WriteString("(")
		writeProp(b, p.X)
		b.WriteString(")")
	}
}
