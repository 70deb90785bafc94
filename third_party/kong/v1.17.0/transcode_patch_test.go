package kong

import (
	"encoding/json"
	"testing"
)

// (specdev patch) jsonTranscode copies a valid UTF-8 string into a
// *string; that is what the round trip through encoding/json gives.

var transcodeCorpus = []string{
	"", "warn", "a b", `quote " and \ backslash`, "<html> & 'x'", "\u2028\u2029", "tab\tnl\n",
	"é ✓ 𝄞", "\x00\x1f\x7f", "\xff invalid", "\xe2\x9c cut", "\"", `\u0041`,
}

func TestTranscodeStringMatchesJSON(t *testing.T) {
	for _, s := range transcodeCorpus {
		checkTranscode(t, s)
	}
}

func checkTranscode(t *testing.T, s string) {
	t.Helper()
	var got, want string
	gotErr := jsonTranscode(s, &got)
	data, err := json.Marshal(s)
	wantErr := err
	if err == nil {
		wantErr = json.Unmarshal(data, &want)
	}
	if (gotErr == nil) != (wantErr == nil) || got != want {
		t.Fatalf("%q: got %q (%v), encoding/json %q (%v)", s, got, gotErr, want, wantErr)
	}
}

func FuzzTranscodeString(f *testing.F) {
	for _, s := range transcodeCorpus {
		f.Add(s)
	}
	f.Fuzz(checkTranscode)
}
