package litmus

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// This file lowers a code test into a plain C test, the one form every
// engine reads (sc, tso, pso, the native LKMM, cat models, the
// architecture models through kcomp, litmus run through cir): each
// scalar of each object becomes one location, named by its path with
// "." written "__" and "[i]" written "_i"; each call of a prelude
// function is inlined at its call site, per thread; a pointer whose
// target is fixed when the code is lowered (a parameter, &obj.field, a
// pointer field that no thread writes, read with a plain access) is
// resolved statically, so p->f is the location of f; a pointer read
// with a marked access (READ_ONCE, rcu_dereference) stays a value of the
// test, dereferenced as herd's C does.

// object is one object of the init block, flattened.
type object struct {
	d       *objDecl
	scalars []*scalar       // by offset
	byOff   map[int]*scalar // the location at each offset
	fns     map[int]*funcDef
	fnSlot  map[int]bool
}

// scalar is one location: object+offset.
type scalar struct {
	obj  *object
	off  int
	typ  *ctype
	path string
	loc  string
	// init is the initial value: an integer, or the address of a place.
	initN    int64
	initAddr *place
	initSet  bool
}

// place is a static lvalue: an object, an offset and the type there.
type place struct {
	obj *object
	off int
	t   *ctype
}

type lowerer struct {
	p       *parser
	cs      *codeState
	objs    map[string]*object
	order   []*object
	paths   map[string]*scalar
	used    map[string]bool // flattened names
	folds   []fold
	written map[string]bool
	notes   []string
	// dynAddr reports a ptr_add in the flattened test: the objects are
	// then declared in its init block.
	dynAddr bool
}

// fold records a plain read of a pointer or function-pointer location
// resolved to its initial value.
type fold struct {
	s   *scalar
	pos Position
}

// lower replaces the code test's init block, processes and final
// section by their flattened forms.
func (p *parser) lower() {
	lw := &lowerer{p: p, cs: p.code, objs: map[string]*object{}, paths: map[string]*scalar{}, used: map[string]bool{}, written: map[string]bool{}}
	// A parameter naming no object declares a zero one of its type.
	for _, pr := range p.test.Procs {
		for _, prm := range pr.Params {
			if p.code.objIndex[prm.Name.Name] == nil {
				t := lw.typeOf(prm.Type, prm.Name.Pos())
				if t != nil && t.kind == kPtr && t.elem.complete && t.elem.kind != kVoid {
					d := &objDecl{name: prm.Name.Name, typ: t.elem, pos: prm.Name.Pos()}
					p.code.objects = append(p.code.objects, d)
					p.code.objIndex[d.name] = d
				}
			}
		}
	}
	for _, d := range p.code.objects {
		lw.flatten(d)
	}
	for _, d := range p.code.objects {
		if d.init != nil {
			lw.initialize(lw.objs[d.name], d.init, d.typ, 0, d.name)
		}
	}
	if len(p.errs) > 0 {
		return
	}
	var init []*InitItem
	var unvalued []pendingAddr
	for _, o := range lw.order {
		for _, s := range o.scalars {
			it := &InitItem{ItemPos: o.d.pos, Type: s.typ.flatType(), Proc: -1, Name: s.loc, EndPos: o.d.pos}
			switch {
			case s.initAddr != nil && s.initAddr.obj.byOff[s.initAddr.off] == nil:
				// The address of a place with no scalar (a table of
				// function pointers, an ops struct): usable only by
				// plain reads, which resolve it statically; the
				// location is kept out of the test unless a thread or
				// the final section needs its value (unvalued).
				unvalued = append(unvalued, pendingAddr{s: s, item: it, pos: o.d.pos})
			case s.initAddr != nil:
				t := lw.addrLoc(s.initAddr, o.d.pos)
				it.Value = &UnaryExpr{OpPos: o.d.pos, Op: "&", X: &Ident{NamePos: o.d.pos, Name: t.loc}}
			case s.initN != 0 && s.typ.opaque && strings.HasPrefix(s.typ.name, "atomic"):
				it.Value = &CallExpr{Fun: &Ident{NamePos: o.d.pos, Name: "ATOMIC_INIT"}, Args: []Expr{intLit(o.d.pos, s.initN)}}
			case s.initN != 0 || s.typ.kind == kInt && !s.typ.opaque:
				it.Value = intLit(o.d.pos, s.initN)
			}
			init = append(init, it)
		}
	}
	for _, it := range p.test.Init {
		init = append(init, it) // registers' initial values
	}
	var procs []*Proc
	for _, pr := range p.test.Procs {
		procs = append(procs, lw.thread(pr))
	}
	lw.checkFolds()
	if len(p.errs) > 0 {
		return
	}
	p.test.Init = init
	p.test.Procs = procs
	lw.final()
	lw.dropUnvalued(unvalued)
	if lw.dynAddr {
		lw.objects()
	}
	code := &Code{Paths: map[string]string{}, Names: map[string]string{}, Notes: lw.notes}
	for _, o := range lw.order {
		co := &CodeObject{Name: o.d.name, Type: o.d.typ.name, Size: o.d.typ.size}
		for _, s := range o.scalars {
			co.Scalars = append(co.Scalars, CodeScalar{Path: s.path, Loc: s.loc, Offset: s.off, Type: s.typ.name})
			code.Names[s.loc] = s.path
		}
		code.Objects = append(code.Objects, co)
	}
	for path, s := range lw.paths {
		code.Paths[path] = s.loc
	}
	p.test.Code = code
}

func intLit(pos Pos, v int64) *IntLit {
	return &IntLit{ValuePos: pos, Value: v, Text: strconv.FormatInt(v, 10)}
}

// errorf reports an error at pos of file f (nil: the test).
func (lw *lowerer) errorf(f *File, pos Pos, format string, args ...any) {
	if f == nil || f == lw.p.file {
		lw.p.error(pos, fmt.Sprintf(format, args...))
		return
	}
	lw.p.errs.Add(f.Position(pos), fmt.Sprintf(format, args...))
	if len(lw.p.errs) >= maxErrors {
		panic(bailout{})
	}
}

// mangle turns a path into a location name herd's C accepts.
func mangle(path string) string {
	r := strings.NewReplacer(".", "__", "[", "_", "]", "")
	return r.Replace(path)
}

// flatten lays out object d: one scalar per offset.
func (lw *lowerer) flatten(d *objDecl) {
	o := &object{d: d, byOff: map[int]*scalar{}, fns: map[int]*funcDef{}, fnSlot: map[int]bool{}}
	lw.objs[d.name] = o
	lw.order = append(lw.order, o)
	var walk func(t *ctype, off int, path string)
	walk = func(t *ctype, off int, path string) {
		switch {
		case t.isFuncPtr():
			o.fnSlot[off] = true
		case t.isScalar():
			if s := o.byOff[off]; s != nil {
				if s.typ.size != t.size {
					lw.errorf(nil, d.pos, "%s and %s overlap with different sizes (a union of scalars must have one size)", s.path, path)
				}
				lw.paths[path] = s
				return
			}
			s := &scalar{obj: o, off: off, typ: t, path: path, loc: mangle(path)}
			if lw.used[s.loc] {
				lw.errorf(nil, d.pos, "location %s of %s clashes with another location's name", s.loc, path)
			}
			lw.used[s.loc] = true
			o.byOff[off] = s
			o.scalars = append(o.scalars, s)
			lw.paths[path] = s
		case t.kind == kStruct:
			for _, f := range t.fields {
				if f.name == "" {
					walk(f.typ, off+f.off, path)
				} else {
					walk(f.typ, off+f.off, path+"."+f.name)
				}
			}
		case t.kind == kArray:
			for i := 0; i < t.n; i++ {
				walk(t.elem, off+i*t.elem.size, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	walk(d.typ, 0, d.name)
	sort.SliceStable(o.scalars, func(i, j int) bool { return o.scalars[i].off < o.scalars[j].off })
}

// initialize applies initializer n to the part of object o of type t at
// offset off.
func (lw *lowerer) initialize(o *object, n *initNode, t *ctype, off int, path string) {
	switch {
	case t.kind == kStruct || t.kind == kArray:
		if !n.brace {
			lw.errorf(nil, n.pos, "initializer of %s (%s) must be a brace list", path, t.name)
			return
		}
		next := 0
		for _, el := range n.list {
			ct, coff, cpath := t, off, path
			if len(el.desig) == 0 {
				var ok bool
				ct, coff, cpath, ok = lw.member(t, off, path, next, n.pos)
				if !ok {
					return
				}
				next++
				lw.initialize(o, el.val, ct, coff, cpath)
				continue
			}
			for i, st := range el.desig {
				var idx int
				var ok bool
				ct, coff, cpath, idx, ok = lw.designate(ct, coff, cpath, st)
				if !ok {
					return
				}
				if i == 0 {
					next = idx + 1
				}
			}
			lw.initialize(o, el.val, ct, coff, cpath)
		}
	case n.brace:
		if len(n.list) != 1 || len(n.list[0].desig) > 0 {
			lw.errorf(nil, n.pos, "initializer of scalar %s must be one value", path)
			return
		}
		lw.initialize(o, n.list[0].val, t, off, path)
	case t.isFuncPtr():
		f := lw.staticFunc(n.expr)
		if f == nil {
			lw.errorf(nil, n.expr.Pos(), "initializer of function pointer %s must name a function of the prelude or be NULL", path)
			return
		}
		o.fns[off] = f
	default:
		s := o.byOff[off]
		if s == nil {
			return
		}
		s.initSet = true
		if v, ok := lw.constInit(n.expr); ok {
			s.initN = v
			return
		}
		pl := lw.staticPlace(n.expr)
		if pl == nil {
			lw.errorf(nil, n.expr.Pos(), "initializer of %s must be a constant or the address of an object", path)
			return
		}
		if t.kind != kPtr {
			lw.errorf(nil, n.expr.Pos(), "%s is %s, not a pointer: it cannot hold an address", path, t.name)
			return
		}
		s.initAddr = pl
	}
}

// member returns the i-th member of t for a positional initializer.
func (lw *lowerer) member(t *ctype, off int, path string, i int, pos Pos) (*ctype, int, string, bool) {
	if t.kind == kArray {
		if i >= t.n {
			lw.errorf(nil, pos, "too many initializers for %s", path)
			return nil, 0, "", false
		}
		return t.elem, off + i*t.elem.size, path + "[" + strconv.Itoa(i) + "]", true
	}
	if i >= len(t.fields) {
		lw.errorf(nil, pos, "too many initializers for %s", path)
		return nil, 0, "", false
	}
	f := t.fields[i]
	if f.name == "" {
		return f.typ, off + f.off, path, true
	}
	return f.typ, off + f.off, path + "." + f.name, true
}

// designate follows one designator.
func (lw *lowerer) designate(t *ctype, off int, path string, st desigStep) (*ctype, int, string, int, bool) {
	if st.field == "" {
		if t.kind != kArray {
			lw.errorf(nil, st.pos, "%s is %s, not an array", path, t.name)
			return nil, 0, "", 0, false
		}
		if st.index >= t.n {
			lw.errorf(nil, st.pos, "index %d out of range for %s (%d elements)", st.index, path, t.n)
			return nil, 0, "", 0, false
		}
		return t.elem, off + st.index*t.elem.size, path + "[" + strconv.Itoa(st.index) + "]", st.index, true
	}
	if t.kind != kStruct {
		lw.errorf(nil, st.pos, "%s is %s, not a struct: no member %s", path, t.name, st.field)
		return nil, 0, "", 0, false
	}
	f, foff, ok := t.field(st.field)
	if !ok {
		lw.errorf(nil, st.pos, "%s has no member %s%s", t.name, st.field, didYouMean(st.field, t.fieldNames()))
		return nil, 0, "", 0, false
	}
	idx := 0
	for i, g := range t.fields {
		if g == f {
			idx = i
		}
	}
	return f.typ, off + foff, path + "." + st.field, idx, true
}

// constInit evaluates a scalar initializer that is a number.
func (lw *lowerer) constInit(e Expr) (int64, bool) {
	if c, ok := e.(*CallExpr); ok && len(c.Args) == 1 {
		switch c.Fun.Name {
		case "ATOMIC_INIT", "ATOMIC_LONG_INIT", "REFCOUNT_INIT", "ATOMIC64_INIT":
			return lw.constInit(c.Args[0])
		}
	}
	if id, ok := e.(*Ident); ok && id.Name == "NULL" {
		return 0, true
	}
	return lw.p.constInt(e)
}

// staticFunc resolves f, &f or NULL in an initializer.
func (lw *lowerer) staticFunc(e Expr) *funcDef {
	e = Unparen(e)
	if u, ok := e.(*UnaryExpr); ok && u.Op == "&" {
		e = Unparen(u.X)
	}
	if id, ok := e.(*Ident); ok {
		return lw.cs.funcs[id.Name]
	}
	return nil
}

// staticPlace resolves &obj.path, or an array's name, in an initializer.
func (lw *lowerer) staticPlace(e Expr) *place {
	e = Unparen(e)
	if u, ok := e.(*UnaryExpr); ok && u.Op == "&" {
		return lw.placeOf(u.X)
	}
	if pl := lw.placeOf(e); pl != nil && pl.t.kind == kArray {
		return &place{obj: pl.obj, off: pl.off, t: pl.t.elem}
	}
	return nil
}

// placeOf resolves obj, obj.f, obj.a[2] written in an initializer.
func (lw *lowerer) placeOf(e Expr) *place {
	switch e := Unparen(e).(type) {
	case *Ident:
		if o := lw.objs[e.Name]; o != nil {
			return &place{obj: o, t: o.d.typ}
		}
		lw.errorf(nil, e.Pos(), "unknown object %s%s", e.Name, didYouMean(e.Name, lw.objNames()))
	case *MemberExpr:
		b := lw.placeOf(e.X)
		if b == nil || e.Arrow {
			return nil
		}
		if b.t.kind != kStruct {
			lw.errorf(nil, e.Name.Pos(), "%s is not a struct: no member %s", b.t.name, e.Name.Name)
			return nil
		}
		f, off, ok := b.t.field(e.Name.Name)
		if !ok {
			lw.errorf(nil, e.Name.Pos(), "%s has no member %s%s", b.t.name, e.Name.Name, didYouMean(e.Name.Name, b.t.fieldNames()))
			return nil
		}
		return &place{obj: b.obj, off: b.off + off, t: f.typ}
	case *IndexExpr:
		b := lw.placeOf(e.X)
		i, ok := lw.p.constInt(e.Index)
		if b == nil || !ok || b.t.kind != kArray || i < 0 || int(i) >= b.t.n {
			return nil
		}
		return &place{obj: b.obj, off: b.off + int(i)*b.t.elem.size, t: b.t.elem}
	}
	return nil
}

func (lw *lowerer) objNames() []string {
	var out []string
	for _, o := range lw.order {
		out = append(out, o.d.name)
	}
	return out
}

// pendingAddr is a pointer location initialised with the address of a
// place that holds no scalar location.
type pendingAddr struct {
	s    *scalar
	item *InitItem
	pos  Pos
}

// dropUnvalued removes the init items of the pointers of unvalued, whose
// every read was resolved statically: no thread accesses them and the
// final section does not name them. One that is needed is an error: its
// value would be an address no location of the test has.
func (lw *lowerer) dropUnvalued(unvalued []pendingAddr) {
	if len(unvalued) == 0 {
		return
	}
	t := lw.p.test
	needed := map[string]bool{}
	for _, pr := range t.Procs {
		for _, prm := range pr.Params {
			needed[prm.Name.Name] = true
		}
	}
	for _, l := range t.Locations {
		needed[l.Name] = true
	}
	for _, p := range t.FinalProps() {
		EachAtom(p, func(a *AtomProp) {
			needed[a.Loc.Name] = true
			if a.Val.Loc != nil {
				needed[a.Val.Loc.Name] = true
			}
		})
	}
	drop := map[*InitItem]bool{}
	for _, u := range unvalued {
		if needed[u.s.loc] {
			pl := u.s.initAddr
			lw.errorf(nil, u.pos, "%s points to %s+%d, which is no scalar location (function pointers only): read it only with plain accesses", u.s.path, pl.obj.d.name, pl.off)
			continue
		}
		drop[u.item] = true
		delete(lw.paths, u.s.path)
		o := u.s.obj
		delete(o.byOff, u.s.off)
		o.scalars = slices.DeleteFunc(o.scalars, func(s *scalar) bool { return s == u.s })
	}
	t.Init = slices.DeleteFunc(t.Init, func(it *InitItem) bool { return drop[it] })
}

// addrLoc is the location a pointer to pl holds: the scalar at pl's
// offset (the first scalar of a struct).
func (lw *lowerer) addrLoc(pl *place, pos Pos) *scalar {
	s := pl.obj.byOff[pl.off]
	if s == nil {
		lw.errorf(nil, pos, "the address of %s at offset %d holds no scalar location", pl.obj.d.name, pl.off)
	}
	return s
}

// typeOf resolves a type as the statement parser spells it ("struct sock
// *", "u32", "unsigned long").
func (lw *lowerer) typeOf(s string, pos Pos) *ctype {
	stars := strings.Count(s, "*")
	words := strings.Fields(strings.ReplaceAll(s, "*", " "))
	var kept []string
	for _, w := range words {
		if !declWords[w] {
			kept = append(kept, w)
		}
	}
	var t *ctype
	name := strings.Join(kept, " ")
	switch {
	case len(kept) == 2 && (kept[0] == "struct" || kept[0] == "union" || kept[0] == "enum"):
		t = lw.cs.tags[name]
		if t == nil && kept[0] == "enum" {
			t = cInt
		}
		if t == nil && stars > 0 {
			t = &ctype{kind: kStruct, name: name} // incomplete: a pointer to it is fine
		}
	case len(kept) == 1 && lw.cs.typedefs[name] != nil:
		t = lw.cs.typedefs[name]
	case name == "void":
		t = cVoid
	default:
		t = scalarType(name)
	}
	if t == nil {
		lw.errorf(nil, pos, "unknown type %s", name)
		return nil
	}
	for i := 0; i < stars; i++ {
		t = ptrTo(t)
	}
	return t
}

// final rewrites the final section's paths into flattened locations.
func (lw *lowerer) final() {
	t := lw.p.test
	var paths []string
	for path := range lw.paths {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	fix := func(l *LocRef) {
		if l == nil || l.Proc >= 0 {
			return
		}
		if s := lw.paths[l.Name]; s != nil {
			l.Name = s.loc
			return
		}
		lw.p.error(l.Pos(), "unknown location "+l.Name+didYouMean(l.Name, paths))
	}
	var prop func(p Prop)
	prop = func(p Prop) {
		switch p := p.(type) {
		case *AtomProp:
			fix(p.Loc)
			if p.Val.Loc != nil {
				fix(p.Val.Loc)
			} else if !p.Val.IsInt && p.Val.Sym != "" {
				// A pointer's value names the object (or scalar) it
				// points to: its first scalar's location.
				if o := lw.objs[p.Val.Sym]; o != nil && o.byOff[0] != nil {
					p.Val.Sym = o.byOff[0].loc
				} else if s := lw.paths[p.Val.Sym]; s != nil {
					p.Val.Sym = s.loc
				}
			}
		case *NotProp:
			prop(p.X)
		case *BinProp:
			prop(p.X)
			prop(p.Y)
		case *ParenProp:
			prop(p.X)
		}
	}
	for _, l := range t.Locations {
		fix(l)
	}
	if t.Filter != nil {
		prop(t.Filter)
	}
	if t.Cond != nil {
		prop(t.Cond.Prop)
	}
	for _, iv := range t.Invariants {
		prop(iv.Prop)
	}
}

// objects declares the flattened test's objects, for its ptr_adds: each
// object with its scalars at their offsets. An object whose one scalar
// is at offset 0 needs no declaration (a location in no object is an
// object of its own).
func (lw *lowerer) objects() {
	for _, o := range lw.order {
		if len(o.scalars) == 1 && o.scalars[0].off == 0 {
			continue
		}
		ob := &Object{ObjPos: o.d.pos, Name: o.d.name, EndPos: o.d.pos}
		for _, s := range o.scalars {
			ob.Cells = append(ob.Cells, ObjectCell{Off: s.off, Loc: s.loc})
		}
		lw.p.test.Objects = append(lw.p.test.Objects, ob)
	}
	lw.notes = append(lw.notes, "ptr_add(p, n), the address n bytes past p in p's object (a member or an array element reached through a pointer or an index read at run time); herd's C has no address arithmetic")
}
