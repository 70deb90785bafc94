package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// TestNoProviderMethods: specdev's kong is patched (third_party/kong,
// kong-named-methods) not to look for Provide*() methods on commands,
// which upstream kong binds as providers before Run; a command that
// declared one would find it ignored.
func TestNoProviderMethods(t *testing.T) {
	parser, err := newParser(fullGrammar(), &App{})
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	var visit func(n *kong.Node)
	visit = func(n *kong.Node) {
		nodes++
		for _, typ := range []reflect.Type{n.Target.Type(), reflect.PointerTo(n.Target.Type())} {
			for i := 0; i < typ.NumMethod(); i++ {
				if name := typ.Method(i).Name; strings.HasPrefix(name, "Provide") {
					t.Errorf("%s: %s.%s would be ignored; pass the value through App instead", n.FullPath(), typ, name)
				}
			}
		}
		for _, child := range n.Children {
			visit(child)
		}
	}
	visit(parser.Model.Node)
	if nodes < 20 {
		t.Errorf("visited %d commands, want every one of specdev's", nodes)
	}
}
