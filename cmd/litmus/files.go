package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// expandArgs turns the FILE|DIR arguments into the list of files to check:
// files as given, directories walked for *.litmus files in lexical order.
// A missing path is returned in errs, in argument order, so that the other
// files are still checked.
func expandArgs(args []string) (files []string, errs []error) {
	for _, a := range args {
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
