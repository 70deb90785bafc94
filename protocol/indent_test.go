package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indent must match json.Indent byte for byte on whatever json.Marshal
// produces, and indentedSize must say its length.
func FuzzIndentMatchesJSONIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[],"b":{},"c":[1,{"d":"e\"]}"}]}`, `"x"`, `[{"k":"\\"}]`, readFixtureString(f)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		compact, err := json.Marshal(v)
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indent(compact); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indent(%s):\n got %s\nwant %s", compact, got, want.Bytes())
		}
		if n := indentedSize(compact); n != want.Len() {
			t.Fatalf("indentedSize(%s) = %d, want %d", compact, n, want.Len())
		}
	})
}

func readFixtureString(f *testing.F) string { return string(readFixtureF(f, "seed_progress.json")) }
