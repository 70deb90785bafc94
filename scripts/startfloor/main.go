// Command startfloor is a benchmark baseline (scripts/bench.sh): a program
// that links specdev's command-line dependencies, kong and
// charmbracelet/log, and does nothing. Its start-up is the floor under
// specdev's: the package init and runtime set-up those dependencies cost
// before any specdev code runs.
package main

import (
	"os"

	_ "github.com/alecthomas/kong"
	_ "github.com/charmbracelet/log"
)

func main() { os.Exit(0) }
