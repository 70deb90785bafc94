//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalColumns asks the terminal f how wide it is; 0 if it does not say.
func terminalColumns(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
