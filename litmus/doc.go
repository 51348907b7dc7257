// Package litmus reads and writes herd7 litmus tests: the Linux kernel's
// C dialect, herd's X86 (Intel syntax) and X86_64 (AT&T syntax) dialects,
// and herd's LISA, the annotated assembly of the older kernel tests. It is
// syntax only: it knows the shape of a test and the table
// of kernel primitives, never what they mean.
//
// Parse and ParseFile build a *Test; their errors are an ErrorList whose
// entries print as file:line:col: message. Format and Fprint write a test
// back in canonical form, and parsing that text gives the same tree.
// Test.Expectations reads the Result: lines of the test's comments.
// Lookup and Primitives give the rows of the primitive table that the
// model layer interprets.
//
// docs/language.md describes the accepted language and lists the
// primitive table.
package litmus
