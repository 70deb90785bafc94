package changeset

import (
	"slices"
	"testing"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []string
		origins []string
		wantErr bool
	}{
		{"empty", "", nil, nil, false},
		{"modified and untracked", " M a.go\x00?? new file.txt\x00", []string{"a.go", "new file.txt"}, nil, false},
		{"staged and deleted", "M  s.go\x00 D gone.go\x00D  rm.go\x00", []string{"s.go", "gone.go", "rm.go"}, nil, false},
		{"rename keeps the new name", "R  new.go\x00old.go\x00 M b.go\x00", []string{"new.go", "b.go"}, []string{"old.go"}, false},
		{"rename in the work tree", " R new.go\x00old.go\x00", []string{"new.go"}, []string{"old.go"}, false},
		{"copy keeps the new name", "C  copy.go\x00orig.go\x00", []string{"copy.go"}, []string{"orig.go"}, false},
		{"untracked folder left out", "?? vendor/lib/\x00?? x.go\x00", []string{"x.go"}, nil, false},
		{"newline in a name", "?? a\nb\x00", []string{"a\nb"}, nil, false},
		{"garbage", "nonsense\x00", nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, origins, err := parseStatus([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("error: got %v, want error: %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) || !slices.Equal(origins, tt.origins) {
				t.Errorf("got %q and origins %q, want %q and %q", got, origins, tt.want, tt.origins)
			}
		})
	}
}
