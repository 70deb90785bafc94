// Command startfloor is the baseline of scripts/bench.sh: an empty Go
// program, built as specdev is (static, stripped). Its start-up is the
// floor under any Go program's: the runtime's set-up and nothing else.
// The start-up targets are ratios to it.
package main

func main() {}
