// Package interp evaluates herd cat models over the candidate executions
// of model/axiom: the interpreter of the cat language (package
// model/cat), as herd's lib/interpreter.ml is for herd7.
//
// A model is loaded once (Load): its file, the files it includes
// (searched beside it, then in the directories given, then in the
// library embedded in model/cat/lib), and the standard library read
// before every model. Check then runs it on a program.
package interp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cat"
	"github.com/litmus-dev/litmus/model/cat/lib"
)

// Model is a loaded cat model, ready to run.
type Model struct {
	// Name is the model's name: the identity in its first line, else its
	// file name.
	Name string
	// Path is the model file as given.
	Path string
	// Files lists every file read (the model, its bell, its includes, the
	// standard library), in the order read; library files are named
	// "lib:NAME".
	Files []string
	// Hash is the SHA-256 of the contents of Files, in order: two runs
	// with the same Hash used the same model.
	Hash string

	prog []flatStmt
	// fv and procFv cache the free variables of expressions (cat.Expr
	// to []string) and of procedure bodies (*cat.Procedure to []string),
	// filled as the model runs; sync.Maps because parallel checks share
	// the model.
	fv, procFv sync.Map
	enums      map[string][]string // enum name -> tags
	tags       map[string]string   // tag -> enum name
	annots     []string            // tags declared as event annotations by a bell
	variants   map[string]bool

	uniproc bool // the model checks SC per location (see analyse)
	catdep  bool // the model said catdep (see registerLevel)
	bell    bool // a bell file was read
	// prunes holds, for each "with" of the program (by index), the checks
	// that can reject a partial choice (see analyseWith).
	prunes map[int]withPrune

	// The top-level names and their slots (see assignSlots).
	names         map[string]*nameInfo
	nSlots, nBase int
	perCand       []int // the instructions a candidate runs, in order

	runners sync.Pool // of *runner, for reuse by later searches
	noHoist bool      // see Options

	// What bindBase binds, resolved to base slots once (see baseSlots).
	primSlots      []primSlot
	annotSlots     []int                 // the base slot of each annotation's set, -1 unread
	candBase       []bool                // by base slot: one of candidateNames
	rfBase, fwBase int                   // the base slots of rf and FW, which every candidate binds
	enumSets       map[*cat.Enum]valSetV // the top-level enums' sets
	fixedSlot      []bool                // by slot: whether it is one of fixedSlots
	fixedSlots     []int                 // the slots of the fixed instructions
	skipCache      skipsCache            // see skips
}

// flatStmt is one top-level instruction of the flattened program
// (includes expanded, variant conditions decided).
type flatStmt struct {
	s     cat.Stmt
	file  *loadedFile
	fixed bool // its value does not depend on rf, co, FW or a with choice
	// lazy marks a let that binds each name to a lazy thunk: one that is
	// not rec, has no when, and binds single names.
	lazy  bool
	slots []int // the slot of each name it binds (see assignSlots)
}

// loadedFile is one parsed cat file.
type loadedFile struct {
	name string
	file *litmus.File
	ast  *cat.Model
}

// Options say where to find included files and which variants hold.
type Options struct {
	// IncludeDirs are searched, after the including file's directory, for
	// included files (herd's -I).
	IncludeDirs []string
	// Bell is a bell file read after the standard library and before the
	// model (herd's -bell; a config file's "bell" line).
	Bell string
	// Variants are the variants that hold (herd's -variant), e.g.
	// "lkmmv2" for the Linux-kernel model.
	Variants []string

	// noHoist keeps the fixed parts of candidate-dependent instructions
	// in place (see hoister), for the differential tests.
	noHoist bool
}

type loader struct {
	m     *Model
	opt   Options
	h     hashWriter
	depth int
	errs  litmus.ErrorList
	// catdep is set when the model says "catdep": it computes the
	// dependencies itself, from register events (see registerLevel).
	catdep bool
	// dropped names the bindings a catdep model makes from register
	// events, left out so that the native relations answer for them.
	dropped map[string]bool
}

// registerLevel names what herd gives a catdep model to compute
// dependencies with: the register events and their rf (Rreg, Wreg,
// rf-reg), the data flow inside an instruction (iico_data, iico_ctrl)
// and the ports of an access (ADDR, DATA). litmus's semantics makes no
// register events; it computes the dependencies that herd's
// aarch64deps.cat defines from them natively, as the primitives addr,
// data, ctrl and pick-addr-dep, pick-data-dep, pick-ctrl-dep, pick-dep
// (model/arch). So in a catdep model a let that reads one of these names,
// or a binding left out before, is left out too, and the native relation
// of the same name, if any, is the one later definitions read; a name
// with no native meaning stays unbound, and reading it is an error that
// names it.
//
// What remains of herd's AArch64 files after that reads iico_data and
// iico_ctrl only from implicit accesses (Imp & Tag & R, Imp & TTD & R,
// NExp & PTE), which litmus never makes: in a catdep model both are
// bound to the empty relation. Outside a catdep model they are unbound.
var registerLevel = map[string]bool{
	"rf-reg": true, "Rreg": true, "Wreg": true, "ADDR": true, "DATA": true,
}

// dropCatdep reports whether the let s of a catdep model is left out
// (registerLevel), and records its names when it is.
func (ld *loader) dropCatdep(s *cat.Let) bool {
	if !ld.catdep {
		return false
	}
	own := map[string]bool{}
	for _, b := range s.Bindings {
		for _, n := range b.Pat.Names {
			own[n] = true
		}
	}
	drop := false
	for _, b := range s.Bindings {
		for _, n := range ld.m.freeVars(b.X) {
			if !own[n] && (registerLevel[n] || ld.dropped[n]) {
				drop = true
			}
		}
	}
	if !drop {
		return false
	}
	if ld.dropped == nil {
		ld.dropped = map[string]bool{}
	}
	for n := range own {
		if !nativeDeps[n] {
			ld.dropped[n] = true
		}
	}
	return true
}

// nativeDeps are the dependency relations bound natively (bindBase): a
// catdep model's own definition of one, left out, leaves the native one.
var nativeDeps = map[string]bool{
	"addr": true, "data": true, "ctrl": true,
	"pick-addr-dep": true, "pick-data-dep": true, "pick-ctrl-dep": true, "pick-dep": true,
}

type hashWriter struct{ parts []string }

// Load reads the cat model at path.
func Load(path string, opt Options) (*Model, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return load(path, src, opt)
}

// LoadLib reads a model of the embedded library by name ("sc.cat").
func LoadLib(name string, opt Options) (*Model, error) {
	src, err := fs.ReadFile(lib.FS, name)
	if err != nil {
		return nil, fmt.Errorf("no model %s in the library", name)
	}
	return load("lib:"+name, src, opt)
}

func load(path string, src []byte, opt Options) (*Model, error) {
	m := &Model{Path: path, noHoist: opt.noHoist,
		enums: map[string][]string{}, tags: map[string]string{}, variants: map[string]bool{}}
	for _, v := range opt.Variants {
		m.variants[strings.ToLower(v)] = true
	}
	ld := &loader{m: m, opt: opt}
	// herd reads stdlib.cat before everything else.
	std, stdName, err := ld.find("stdlib.cat", filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if err := ld.file(stdName, std); err != nil {
		return nil, err
	}
	if opt.Bell != "" {
		b, err := ReadFile(opt.Bell)
		if err != nil {
			return nil, err
		}
		if err := ld.file(opt.Bell, b); err != nil {
			return nil, err
		}
		m.bell = true
	}
	main, err := cat.Parse(path, src)
	if err != nil {
		return nil, err
	}
	m.Name = main.Name
	if m.Name == "" {
		m.Name = filepath.Base(path)
	}
	if err := ld.parsed(path, src, main); err != nil {
		return nil, err
	}
	if err := ld.errs.Err(); err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, p := range ld.h.parts {
		h.Write([]byte(p))
	}
	m.Hash = hex.EncodeToString(h.Sum(nil))
	m.analyse()
	return m, nil
}

// find locates an included file: beside the including file, in the
// include directories, then in the embedded library.
func (ld *loader) find(name, dir string) ([]byte, string, error) {
	dirs := append([]string{dir}, ld.opt.IncludeDirs...)
	for _, d := range dirs {
		if d == "" || strings.HasPrefix(d, "lib:") {
			continue
		}
		p := filepath.Join(d, name)
		b, err := ReadFile(p)
		if err == nil {
			return b, p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
	}
	if b, err := fs.ReadFile(lib.FS, name); err == nil {
		return b, "lib:" + name, nil
	}
	return nil, "", fmt.Errorf("cannot find included file %s (searched %s and the built-in library)", name, strings.Join(dirs, ", "))
}

func (ld *loader) file(name string, src []byte) error {
	ast, err := cat.Parse(name, src)
	if err != nil {
		return err
	}
	return ld.parsed(name, src, ast)
}

func (ld *loader) parsed(name string, src []byte, ast *cat.Model) error {
	ld.depth++
	defer func() { ld.depth-- }()
	if ld.depth > 20 {
		return fmt.Errorf("%s: includes nested too deeply (a cycle?)", name)
	}
	ld.m.Files = append(ld.m.Files, name)
	// The hash is of the contents alone, each file's length first: the
	// same files read by another spelling of their paths (./m.cat,
	// an absolute path, another -I) are the same model.
	ld.h.parts = append(ld.h.parts, strconv.Itoa(len(src)), "\x00", string(src))
	if ast.Catdep {
		ld.catdep, ld.m.catdep = true, true
	}
	f := &loadedFile{name: name, file: ast.File, ast: ast}
	return ld.stmts(ast.Stmts, f)
}

// nestedInclude returns the first include inside a body of list (a
// procedure, a forall, a match clause, or an if inside one of these), or
// nil. herd reads such an include where it stands, each time the body
// runs; litmus expands includes when it loads the model, so it refuses
// them rather than skip them.
func nestedInclude(list []cat.Stmt, nested bool) *cat.Include {
	for _, s := range list {
		var bodies [][]cat.Stmt
		switch s := s.(type) {
		case *cat.Include:
			if nested {
				return s
			}
		case *cat.Procedure:
			bodies = [][]cat.Stmt{s.Body}
		case *cat.Forall:
			bodies = [][]cat.Stmt{s.Body}
		case *cat.MatchStmt:
			bodies = append(bodies, s.Default)
			for _, c := range s.Clauses {
				bodies = append(bodies, c.Body)
			}
		case *cat.IfVariant:
			// A top-level if is expanded at load time with its includes.
			if in := nestedInclude(s.Then, nested); in != nil {
				return in
			}
			if in := nestedInclude(s.Else, nested); in != nil {
				return in
			}
		}
		for _, b := range bodies {
			if in := nestedInclude(b, true); in != nil {
				return in
			}
		}
	}
	return nil
}

// stmts flattens instructions into the program.
func (ld *loader) stmts(list []cat.Stmt, f *loadedFile) error {
	if in := nestedInclude(list, false); in != nil {
		return &litmus.Error{Pos: f.file.Position(in.At), Msg: fmt.Sprintf("include %q inside a procedure, forall or match: not supported (litmus expands includes when it loads the model; move it to the top level)", in.File)}
	}
	for _, s := range list {
		switch s := s.(type) {
		case *cat.Include:
			dir := filepath.Dir(f.name)
			if strings.HasPrefix(f.name, "lib:") {
				dir = ""
			}
			src, name, err := ld.find(s.File, dir)
			if err != nil {
				return &litmus.Error{Pos: f.file.Position(s.At), Msg: err.Error()}
			}
			if err := ld.file(name, src); err != nil {
				return err
			}
		case *cat.IfVariant:
			body := s.Else
			if ld.m.variant(s.Cond) {
				body = s.Then
			}
			if err := ld.stmts(body, f); err != nil {
				return err
			}
		case *cat.Enum:
			ld.m.enums[s.Name] = s.Tags
			for _, t := range s.Tags {
				ld.m.tags[t] = s.Name
			}
			ld.m.prog = append(ld.m.prog, flatStmt{s: s, file: f})
		case *cat.Events:
			// A bell's "instructions R[Accesses]": the tags of Accesses
			// are annotations, each naming an event set.
			for _, a := range s.Args {
				if v, ok := a.(*cat.Var); ok {
					for _, t := range ld.m.enums[v.Name] {
						ld.m.annots = append(ld.m.annots, t)
					}
				}
				if t, ok := a.(*cat.Tag); ok {
					ld.m.annots = append(ld.m.annots, t.Name)
				}
			}
		case *cat.Let:
			if ld.dropCatdep(s) {
				continue
			}
			if native := nativeOverride(f.name, s); native != nil {
				ld.m.prog = append(ld.m.prog, flatStmt{s: native, file: f})
				continue
			}
			ld.m.prog = append(ld.m.prog, flatStmt{s: s, file: f})
		default:
			ld.m.prog = append(ld.m.prog, flatStmt{s: s, file: f})
		}
	}
	return nil
}

// nativeOverride replaces herd's own cat definition of cross in a file
// named cross.cat by the native, lazy cross: the same value, computed
// one member at a time.
func nativeOverride(file string, s *cat.Let) cat.Stmt {
	if filepath.Base(strings.TrimPrefix(file, "lib:")) != "cross.cat" || len(s.Bindings) != 1 {
		return nil
	}
	b := s.Bindings[0]
	if len(b.Pat.Names) != 1 || b.Pat.Names[0] != "cross" {
		return nil
	}
	return &cat.Let{At: s.At, Bindings: []*cat.Binding{{At: b.At, Pat: b.Pat, X: &cat.Var{At: b.At, Name: "cross"}}}}
}

// variant evaluates a variant condition.
func (m *Model) variant(v cat.Variant) bool {
	switch v.Op {
	case "":
		return m.variants[strings.ToLower(v.Name)]
	case "not":
		return !m.variant(v.Args[0])
	case "&&":
		return m.variant(v.Args[0]) && m.variant(v.Args[1])
	case "||":
		return m.variant(v.Args[0]) || m.variant(v.Args[1])
	}
	return false
}

// procFree returns the free variables of a procedure body.
func (m *Model) procFree(p *cat.Procedure) []string {
	if fv, ok := m.procFv.Load(p); ok {
		return fv.([]string)
	}
	fv := m.stmtsFree(p.Body, p.Params.Names)
	m.procFv.Store(p, fv)
	return fv
}

// LoadConfig reads a herd configuration file (linux-kernel.cfg): its
// "model", "bell" and "variant" lines, with file names relative to the
// configuration's directory.
func LoadConfig(path string, opt Options) (*Model, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	var modelFile string
	for _, line := range strings.Split(string(src), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		switch fields[0] {
		case "model":
			modelFile = filepath.Join(dir, fields[1])
		case "bell":
			opt.Bell = filepath.Join(dir, fields[1])
		case "variant":
			opt.Variants = append(opt.Variants, strings.Split(fields[1], ",")...)
		}
	}
	if modelFile == "" {
		return nil, fmt.Errorf("%s: no model line", path)
	}
	opt.IncludeDirs = append(opt.IncludeDirs, dir)
	m, err := Load(modelFile, opt)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// HasBell reports whether the model was read with a bell file (herd's
// -bell, or a bell line of a -conf file): the bell gives the annotations
// of C primitives their event sets.
func (m *Model) HasBell() bool { return m.bell }

// Variant reports whether herd's -variant name holds for the model.
func (m *Model) Variant(name string) bool { return m.variants[strings.ToLower(name)] }

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MaxFileSize is the size of the largest model file (cat, bell, cfg,
// def) litmus reads: 8 MiB, as for tests (litmus.MaxSize). herd's own
// models are tens of kilobytes; the bound keeps a wrong argument
// (--cat /dev/zero) from filling the memory before the parser sees it.
const MaxFileSize = litmus.MaxSize

// ReadFile reads the model file at path, refusing more than
// MaxFileSize bytes.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, fmt.Errorf("%s: more than %d MiB; litmus reads model files up to %d MiB", path, MaxFileSize>>20, MaxFileSize>>20)
	}
	return src, nil
}
