// Command litmus checks Linux-kernel litmus tests under several memory
// models: SC, x86-TSO, PSO and the Linux-kernel memory model.
//
// Usage:
//
//	litmus <command> [arguments]
//
// Run "litmus help" for the list of commands.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
