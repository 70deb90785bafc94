//go:build !unix

package main

import "os"

// terminalColumns: this system is not asked; the caller assumes 80.
func terminalColumns(*os.File) int { return 0 }
