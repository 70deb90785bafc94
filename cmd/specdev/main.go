// Command specdev hands review work back and forth between an implementer
// (specdev work) and a reviewer (specdev check) through files in the
// repository. This package only parses, wires packages together and
// presents; the exit code of every outcome is decided in exit.go.
package main

import (
	"os"
)

func main() {
	reserveStack()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// reservedStack is the frame reserveStack asks for: with it the main
// goroutine's stack grows once, to 32 KiB, before any command runs.
const reservedStack = 16 << 10

// reserveStack grows the main goroutine's stack while it is shallow. A
// goroutine's stack starts small and doubles when a call needs more; a
// short command's doubled twice (to 16 KiB), each time deep inside kong's
// parse, where the runtime copies the stack and adjusts every frame on it
// by reading the binary's tables for each function (pages touched for the
// first time in a process that lives 3 ms). Growing it here costs one
// copy of two frames. Measured: `specdev version` 0.1-0.18 ms faster, an
// idle `check` 0.04-0.07 ms (docs/performance.md, "Start-up, fourth
// pass").
//
//go:noinline
func reserveStack() byte {
	var frame [reservedStack]byte
	return firstByte(&frame)
}

// firstByte reads the frame, so that the compiler keeps it.
//
//go:noinline
func firstByte(frame *[reservedStack]byte) byte { return frame[0] }
