// Command specdev hands review work back and forth between an implementer
// (specdev work) and a reviewer (specdev check) through files in the
// repository. This package only parses, wires packages together and
// presents; the exit code of every outcome is decided in exit.go.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
