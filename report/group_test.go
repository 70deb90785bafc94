package report

import (
	"reflect"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// groupByFile lists each file's findings in recording order, however
// they interleave with other files' findings.
func TestGroupByFile(t *testing.T) {
	tests := []struct {
		name  string
		files []string // the file of each finding, in order
		want  map[string][]int
	}{
		{"none", nil, map[string][]int{}},
		{"one", []string{"a"}, map[string][]int{"a": {0}}},
		{"one file", []string{"a", "a", "a"}, map[string][]int{"a": {0, 1, 2}}},
		{"interleaved", []string{"a", "b", "a", "c", "b", "a"}, map[string][]int{"a": {0, 2, 5}, "b": {1, 4}, "c": {3}}},
		{"general findings", []string{"", "a", ""}, map[string][]int{"": {0, 2}, "a": {1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var findings []protocol.Finding
			for _, f := range tt.files {
				findings = append(findings, protocol.Finding{File: f})
			}
			first, next := groupByFile(findings)
			got := map[string][]int{}
			for file, i := range first {
				for ; i >= 0; i = next[i] {
					got[file] = append(got[file], i)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
