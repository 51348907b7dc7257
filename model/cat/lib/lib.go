// Package lib is the library of cat files built into litmus: the
// standard library every model reads first, the co generation that
// herd's models include (cross.cat, cos.cat and its variants), and the
// models litmus ships. Every file here was written for this project from
// the published definitions of the models (see docs/cat.md); none is a
// copy of herd's.
package lib

import "embed"

// FS holds the library's files.
//
//go:embed *.cat
var FS embed.FS
