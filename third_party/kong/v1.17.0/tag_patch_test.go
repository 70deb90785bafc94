package kong

import (
	"reflect"
	"testing"
)

// (specdev patch) The byte-by-byte tag parser answers exactly as
// upstream's rune-by-rune one, and is the one that parses ordinary tags.

var tagCorpus = []string{
	``,
	` `,
	`  `,
	`cmd:""`,
	`cmd:"" help:"Print the version."`,
	`help:"Project folder (or its .specdev folder). Default: the nearest .specdev walking up." env:"SPECDEV_DIR" placeholder:"PATH"`,
	`name:"json" help:"Print exactly one JSON document on stdout."`,
	`help:"Log level on stderr." default:"warn" enum:"debug,info,warn,error"`,
	`cmd:"" default:"withargs" hidden:"" help:"Polls once: it claims a review."`,
	`arg:"" optional:"" help:"a \"quoted\" word and a back\\slash" kong:"name=x,short=y"`,
	`help:"tab\there, unicode ✓ déjà vu"`,
	`help:"ends with a backslash\\"`,
	`help:"a\nnewline"`,
	`help:"escaped \\n stays"`,
	`kong:"cmd,help='Say \'hello\'.',aliases='a,b'"`,
	`kong:"-"`,
	`a:"1" a:"2" b`,
	`a:b:c`,
	`:"x"`,
	`"x"`,
	`help:"unterminated`,
	`help:"x"y`,
	`help:"x" "`,
	`help:"bad escape \q"`,
	`help:"\u00e9"`,
	"help:\"invalid \xff byte\"",
	"help:\"\xe2\x9c\" cut rune",
	`help:"ünïcödé before the error"x`,
	`set:"k=v" set:"k2=v2" xor:"a,b" and:"c d"`,
	`help:'single' name:x`,
	`help:""`,
	`help:"\""`,
	`help:"\\"`,
	`\`,
	`\"`,
	`key\"x:"v"`,
}

func TestParseTagItemsMatchesUpstream(t *testing.T) {
	for _, tag := range tagCorpus {
		for _, chr := range []tagChars{bareChars, kongChars} {
			checkTagParsers(t, tag, chr)
		}
	}
}

func checkTagParsers(t *testing.T, tag string, chr tagChars) {
	t.Helper()
	got, gotErr := parseTagItems(tag, chr)
	want, wantErr := parseTagItemsRunes(tag, chr)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q (sep %q): error %v, upstream %v", tag, chr.sep, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q (sep %q): %q, upstream %q", tag, chr.sep, got, want)
	}
}

// The byte parser is the one taken for the tags of a real command line.
func TestParseTagItemsBytesTakesOrdinaryTags(t *testing.T) {
	for _, tag := range tagCorpus[:11] {
		if _, ok := parseTagItemsBytes(tag, bareChars); !ok {
			t.Errorf("%q went to the rune parser", tag)
		}
	}
}

func FuzzParseTagItems(f *testing.F) {
	for _, tag := range tagCorpus {
		f.Add(tag)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		for _, chr := range []tagChars{bareChars, kongChars} {
			checkTagParsers(t, tag, chr)
		}
	})
}
