package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// stdinArg is the argument that names standard input, and stdinName how
// messages name it.
const (
	stdinArg  = "-"
	stdinName = "<stdin>"
)

// readSource reads the test named by arg: the file, or standard input for
// "-" (read once, whichever command asks), at most litmus.MaxSize bytes.
// It returns the name to print in messages.
func (e *Env) readSource(arg string) (name string, src []byte, err error) {
	if arg != stdinArg {
		f, err := os.Open(arg)
		if err != nil {
			return arg, nil, err
		}
		defer f.Close()
		src, err := litmus.ReadSource(arg, f)
		return arg, src, err
	}
	e.stdinOnce.Do(func() {
		e.stdinSrc, e.stdinErr = litmus.ReadSource(stdinName, e.Stdin)
	})
	return stdinName, e.stdinSrc, e.stdinErr
}

// parseArg reads and parses the test named by arg ("-": standard input).
func (e *Env) parseArg(arg string, prims litmus.Table) (*litmus.Test, error) {
	name, src, err := e.readSource(arg)
	if err != nil {
		return nil, err
	}
	return litmus.ParseWith(name, src, prims)
}

// argFiles is expandArgs for a command: it prints the error of each
// missing path and returns exitUsage as code when there was one (the
// other files are still to be read), else exitOK.
func argFiles(env *Env, args []string) (files []string, code int) {
	files, errs := expandArgs(args)
	code = exitOK
	for _, err := range errs {
		env.Errorf("%v", err)
		code = exitUsage
	}
	return files, code
}

// expandArgs turns the FILE|DIR arguments into the list of files to check:
// files as given, directories walked for *.litmus files in lexical order.
// A missing path is returned in errs, in argument order, so that the other
// files are still checked.
func expandArgs(args []string) (files []string, errs []error) {
	for _, a := range args {
		if a == stdinArg {
			files = append(files, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(path, ".litmus") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, errs
}
