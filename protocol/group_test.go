package protocol

import "testing"

func TestCheckpointInterval(t *testing.T) {
	every := func(n int) *int { return &n }
	tests := []struct {
		name string
		cfg  Config
		want int
	}{
		{"default effort (medium)", Config{}, 0},
		{"low", Config{Effort: "low"}, 0},
		{"medium", Config{Effort: "medium"}, 0},
		{"high", Config{Effort: "high"}, 3},
		{"max", Config{Effort: "max"}, 1},
		{"explicit wins over effort", Config{Effort: "high", CheckpointEvery: every(5)}, 5},
		{"explicit 0 turns them off", Config{Effort: "max", CheckpointEvery: every(0)}, 0},
		{"max_rounds does not change it", Config{Effort: "high", MaxRounds: 9}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.CheckpointInterval(); got != tt.want {
				t.Errorf("CheckpointInterval() = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestConfigCheckpointEveryBounds(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"0 is off", 0, true},
		{"1", 1, true},
		{"the maximum", MaxCheckpointEvery, true},
		{"past the maximum", MaxCheckpointEvery + 1, false},
		{"negative", -1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.n
			c := Config{CheckpointEvery: &n}
			if err := c.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
			data := []byte(`{"checkpoint_every": ` + itoa(tt.n) + `}`)
			if _, err := DecodeConfig(ConfigFile, data); (err == nil) != tt.ok {
				t.Errorf("DecodeConfig = %v, want ok %v", err, tt.ok)
			}
		})
	}
}
