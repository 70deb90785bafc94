//go:build race

package protocol

// raceEnabled: the race detector slows the property test eightfold and
// finds nothing in it (it runs no goroutines of its own), so its largest
// values are left to the plain run.
const raceEnabled = true
