package parser

import "testing"

// The specdev patch: Table is the literal gen.go writes; it must be
// exactly the table GenerateTransitionTable builds.
func TestTableIsGenerated(t *testing.T) {
	want := GenerateTransitionTable()
	if len(Table) != len(want) {
		t.Fatalf("len(Table) = %d, want %d: run go generate in the module root", len(Table), len(want))
	}
	for i := range want {
		if Table[i] != want[i] {
			t.Fatalf("Table[%d] = %#x, want %#x: run go generate in the module root", i, Table[i], want[i])
		}
	}
}
