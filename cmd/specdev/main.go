// Command specdev hands review work back and forth between an implementer
// (specdev work) and a reviewer (specdev check) through files in the
// repository. This package only parses, wires packages together and
// presents; the exit code of every outcome is decided in output.go.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// Most commands live for milliseconds and allocate a few MiB they
	// keep to the end: collecting that heap frees nothing, and cost
	// "check record" in a 5,000-file review 5 ms of its 25 ms target.
	// A fourfold heap before the first collection avoids it; a GOGC in
	// the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
