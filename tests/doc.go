// Package tests holds the end-to-end tests of specdev: testscript
// scenarios that run the real binary as users run it, crash and
// concurrency tests with real processes, and whole-process benchmarks.
package tests
