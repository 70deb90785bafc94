package kong

import (
	"reflect"
	"testing"
)

// (specdev patch) SkipFields leaves fields out before their tags are
// parsed: a skipped command is not in the model, and a tag that would
// not parse does no harm there.

type skipGrammar struct {
	Verbose bool     `help:"Say more."`
	Keep    skipKept `cmd:"" help:"The kept command."`
	Drop    struct {
		Bad string `kong:"help='unterminated"`
	} `cmd:"" help:"A command left out."`
}

type skipKept struct {
	Name string `arg:"" help:"A name."`
}

func skipDrop(parent reflect.Type, field reflect.StructField) bool {
	return parent == reflect.TypeOf(skipGrammar{}) && field.Name == "Drop"
}

func TestSkipFields(t *testing.T) {
	if _, err := New(&skipGrammar{}); err == nil {
		t.Fatal("the bad tag parsed: the test proves nothing")
	}
	var cli skipGrammar
	k, err := New(&cli, SkipFields(skipDrop), Exit(func(int) { t.Fatal("exit") }))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, child := range k.Model.Children {
		names = append(names, child.Name)
	}
	if !reflect.DeepEqual(names, []string{"keep"}) {
		t.Fatalf("commands in the model: %v", names)
	}
	ctx, err := k.Parse([]string{"--verbose", "keep", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Command() != "keep <name>" || cli.Keep.Name != "x" || !cli.Verbose {
		t.Fatalf("parsed %q into %+v", ctx.Command(), cli)
	}
	if _, err := k.Parse([]string{"drop"}); err == nil {
		t.Fatal("a skipped command parsed")
	}
}
