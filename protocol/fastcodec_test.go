package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// codecRoot is a state file type for the fast codec's tests: its fields
// (the method-free alias type) as they stand, and the slow and fast ways
// to decode and encode them.
type codecRoot struct {
	name   string
	value  any                 // pointer to the Request or Progress that mutate changes
	fields func() (any, Extra) // the alias-typed copy the encoders take, and the kept fields
	fresh  func() any          // pointer to a zero alias-typed value to decode into
	known  map[string]bool     // for decodeSlow
	folded map[string]string   // for decodeFast
	deref  func(ptr any) any   // the value a fresh pointer points to
}

func codecRoots() []codecRoot {
	r, p, c := baseRequest(), baseProgress(), baseConfig()
	return []codecRoot{
		{name: "request", value: r, known: requestTop().known, folded: requestTop().folded,
			fields: func() (any, Extra) { return requestFields(*r), r.Extra },
			fresh:  func() any { return new(requestFields) },
			deref:  func(ptr any) any { return *ptr.(*requestFields) }},
		{name: "progress", value: p, known: progressTop().known, folded: progressTop().folded,
			fields: func() (any, Extra) { return progressFields(*p), p.Extra },
			fresh:  func() any { return new(progressFields) },
			deref:  func(ptr any) any { return *ptr.(*progressFields) }},
		{name: "config", value: c, known: configTop().known, folded: configTop().folded,
			fields: func() (any, Extra) { return *c, nil },
			fresh:  func() any { return new(Config) },
			deref:  func(ptr any) any { return *ptr.(*Config) }},
	}
}

// agree checks the fast encoder and decoder against the slow ones on the
// root's current value, and reports whether the fast ones took it. The
// decoders are compared on values encoded in at most largest bytes.
func (c codecRoot) agree(t *testing.T, what string, largest int) (encoded, decoded bool) {
	t.Helper()
	fields, extra := c.fields()
	slow, slowErr := encodeSlow(fields, extra)
	fast, ok := encodeFast(fields, extra, 0)
	switch {
	case slowErr != nil && ok:
		t.Errorf("%s: json.Marshal refuses it (%v), the fast encoder wrote %s", what, slowErr, clip(fast))
	case ok && !bytes.Equal(fast, slow):
		t.Errorf("%s: the fast encoder wrote\n%s\nencoding/json\n%s", what, clip(fast), clip(slow))
	}
	if slowErr != nil || len(slow) > largest {
		return ok, false
	}
	forms := [][]byte{slow}
	if !raceEnabled {
		var compact bytes.Buffer
		if err := json.Compact(&compact, slow); err != nil {
			t.Fatal(err)
		}
		forms = append(forms, compact.Bytes())
	}
	decoded = true
	for _, data := range forms {
		decoded = c.decodeAgrees(t, what, data) && decoded
	}
	return ok, decoded
}

// decodeAgrees: whatever the fast decoder takes, encoding/json takes too,
// and reads the same. It reports whether the fast decoder took data.
func (c codecRoot) decodeAgrees(t testing.TB, what string, data []byte) bool {
	t.Helper()
	fast, slow := c.fresh(), c.fresh()
	fastExtra, ok := decodeFast(data, fast, c.folded)
	slowExtra, err := decodeSlow(data, slow, c.known)
	switch {
	case !ok:
	case err != nil:
		t.Errorf("%s: encoding/json refuses %s (%v), the fast decoder took it", what, clip(data), err)
	case !reflect.DeepEqual(c.deref(fast), c.deref(slow)):
		t.Errorf("%s: from %s\nthe fast decoder read %+v\nencoding/json       %+v", what, clip(data), c.deref(fast), c.deref(slow))
	case !reflect.DeepEqual(fastExtra, slowExtra):
		t.Errorf("%s: from %s\nthe fast decoder kept %v\nencoding/json       %v", what, clip(data), fastExtra, slowExtra)
	}
	return ok
}

// TestFastCodecAgrees: for every field of the request and the progress,
// set to each value of the property test's pools (limits, invalid UTF-8,
// odd Unicode, HTML characters, extreme numbers, nil and empty lists, kept
// unknown fields), the fast encoder writes exactly what encoding/json and
// indent write, and the fast decoder reads back exactly what encoding/json
// reads, from the indented file and from compact JSON. The fast paths must
// also be the ones taken for the values specdev writes: a codec that
// always gave up would pass the rest and save nothing.
func TestFastCodecAgrees(t *testing.T) {
	for _, root := range codecRoots() {
		t.Run(root.name, func(t *testing.T) {
			t.Parallel()
			if enc, dec := root.agree(t, "base", largestDecoded()); !enc || !dec {
				t.Fatalf("the fast codec gives up on the base value (encoder took it: %v, decoder: %v)", enc, dec)
			}
			n, encoded, decoded := 0, 0, 0
			m := mutator{valid: func() bool { return true }, seen: map[reflect.Type]bool{},
				visit: func(site, desc string) {
					n++
					enc, dec := root.agree(t, site+" = "+desc, largestDecoded())
					encoded += b2i(enc)
					decoded += b2i(dec)
				}}
			m.mutate(reflect.ValueOf(root.value).Elem(), root.name)
			t.Logf("%d values: the fast encoder took %d, the fast decoder %d", n, encoded, decoded)
		})
	}
}

// largestDecoded is the size of the largest value the property test
// decodes both ways: larger values add time, not cases (a large review
// has a test of its own). The race detector slows the codec tenfold and finds nothing more in a large
// value, or in compact JSON, than in a small indented one (the plain run
// has them all).
func largestDecoded() int {
	if raceEnabled {
		return 4 << 10
	}
	return 64 << 10
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The fast paths are taken for a review of 1,000 files as specdev writes
// it, and agree there too.
func TestFastCodecTakesLargeReviews(t *testing.T) {
	files := make([]string, 1000)
	digests := map[string]string{}
	for i := range files {
		files[i] = fmt.Sprintf("src/d%d/f%d.go", i%50, i)
		digests[files[i]] = strings.Repeat(fmt.Sprintf("%x", i%16), 64)
	}
	r, p := baseRequest(), baseProgress()
	r.ChangedFiles, r.FileDigests = files, digests
	p.FilesReviewed, p.FilesRemaining, p.FilesTotal = files[:500], files[500:], 1000
	p.Findings = nil
	for _, f := range files[:500] {
		p.Findings = append(p.Findings, Finding{File: f, Severity: SeverityMinor, Description: "a finding", Line: 7})
	}
	for _, root := range []codecRoot{codecRoots()[0], codecRoots()[1]} {
		switch v := root.value.(type) {
		case *Request:
			*v = *r
		case *Progress:
			*v = *p
		}
		if enc, dec := root.agree(t, root.name, MaxFileSize); !enc || !dec {
			t.Errorf("%s: the fast codec gives up (encoder took it: %v, decoder: %v)", root.name, enc, dec)
		}
	}
}

// Malformed or unusual documents: whatever the fast decoder takes,
// encoding/json reads the same way; what it cannot read exactly as
// encoding/json does, it leaves to encoding/json.
func TestFastDecodeGivesUp(t *testing.T) {
	tests := []struct {
		name string
		data string
		ok   bool
	}{
		{"plain", `{"version":1,"status":"pending","changed_files":["a.go"]}`, true},
		{"white space everywhere", " {\n\t\"version\" : 1 ,\r\n \"changed_files\" : [ \"a.go\" , \"b.go\" ] }\n", true},
		{"escapes", `{"notes":"a\"b\\c\u00e9\n","changed_files":["d\/e.go"]}`, true},
		{"unknown field kept", `{"version":1,"x_tool":{"k":[1,2]}}`, true},
		{"null list", `{"changed_files":null,"journal":null}`, true},
		{"empty list and map", `{"changed_files":[],"file_digests":{}}`, true},
		{"map key twice: the last wins", `{"file_digests":{"a":"1","a":"2"}}`, true},
		{"key in another case", `{"Status":"pending"}`, false},
		{"key twice", `{"status":"pending","status":"failed"}`, false},
		{"unknown key twice", `{"x":1,"x":2}`, false},
		{"nested unknown key", `{"journal":{"events":[],"x":1}}`, false},
		{"string for a number", `{"version":"1"}`, false},
		{"fraction", `{"version":1.0}`, false},
		{"exponent", `{"version":1e0}`, false},
		{"too large", `{"version":99999999999999999999}`, false},
		{"leading zero", `{"version":01}`, false},
		{"number for a string", `{"status":1}`, false},
		{"control character", "{\"notes\":\"a\x01b\"}", false},
		{"bad escape", `{"notes":"a\qb"}`, false},
		{"short unicode escape", `{"notes":"\u00e"}`, false},
		{"invalid UTF-8: encoding/json's U+FFFD", "{\"notes\":\"a\xffb\"}", true},
		{"trailing garbage", `{"version":1}x`, false},
		{"two documents", `{"version":1}{}`, false},
		{"not closed", `{"version":1`, false},
		{"trailing comma", `{"version":1,}`, false},
		{"bad unknown value", `{"x":[1,}`, false},
		{"truex", `{"staged":truex}`, false},
		{"top-level array", `[]`, false},
		{"top-level null", `null`, false},
	}
	root := codecRoots()[0]
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ok := root.decodeAgrees(t, tt.name, []byte(tt.data)); ok != tt.ok {
				t.Errorf("the fast decoder took it: %v, want %v", ok, tt.ok)
			}
		})
	}
}

// FuzzFastCodec: on any bytes, whatever the fast decoder reads,
// encoding/json reads the same; whatever encoding/json reads, the fast
// encoder writes as json.Marshal and indent do; a peeked list of files is
// what encoding/json reads.
func FuzzFastCodec(f *testing.F) {
	f.Add(readFixtureF(f, "seed_request.json"))
	f.Add(readFixtureF(f, "seed_progress.json"))
	for _, root := range codecRoots() {
		fields, extra := root.fields()
		data, err := encodeSlow(fields, extra)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"changed_files":["a<b>&c","\u2028","é"],"file_digests":{"b":"1","a":"\\"},"x":{"y" : [ 1 ]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, root := range codecRoots() {
			root.decodeAgrees(t, root.name, data)
			v := root.fresh()
			extra, err := decodeSlow(data, v, root.known)
			if err != nil {
				continue
			}
			fields := root.deref(v)
			slow, err := encodeSlow(fields, extra)
			if fast, ok := encodeFast(fields, extra, 0); ok && (err != nil || !bytes.Equal(fast, slow)) {
				t.Errorf("%s: the fast encoder wrote\n%s\nencoding/json (%v)\n%s", root.name, fast, err, slow)
			}
		}
		var want []string
		if json.Unmarshal(data, &want) == nil {
			var got []string
			if peekStrings(data, &got) && !reflect.DeepEqual(got, want) {
				t.Errorf("peekStrings read %q, encoding/json %q", got, want)
			}
		}
	})
}

// readsAsIs, eight bytes at a time, agrees with a byte-by-byte look at
// every byte value in every position of strings up to 24 bytes.
func TestReadsAsIs(t *testing.T) {
	simple := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c == '\\' || c >= 0x80 {
				return false
			}
		}
		return true
	}
	for n := 0; n <= 24; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := bytes.Repeat([]byte{'a'}, n)
				b[pos] = byte(c)
				if got, want := readsAsIs(b), simple(b); got != want {
					t.Fatalf("readsAsIs(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}

// The config init writes is read by the fast decoder, not encoding/json
// (DecodeTrustedConfig), and reads as encoding/json reads it.
func TestFastDecoderTakesTheDefaultConfig(t *testing.T) {
	data, err := json.MarshalIndent(DefaultConfig(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var fast, slow Config
	if extra, ok := decodeFast(data, &fast, configTop().folded); !ok || len(extra) > 0 {
		t.Fatalf("the fast decoder gave up on %s (extra %v)", data, extra)
	}
	if err := json.Unmarshal(data, &slow); err != nil || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast %+v, encoding/json %+v (%v)", fast, slow, err)
	}
	got, err := DecodeTrustedConfig("config.json", data)
	if err != nil || !reflect.DeepEqual(got, slow) {
		t.Fatalf("DecodeTrustedConfig: %+v, %v", got, err)
	}
}
