package kong

// Tests of the specdev patch kong-hook-walk: walkEmbedded reads each
// type's embedded fields once, and the hook pass over default flags makes
// its bindings only for the first hook it finds.

import (
	"fmt"
	"reflect"
	"testing"
)

// upstreamWalkEmbedded is walkEmbedded of v1.17.0.
func upstreamWalkEmbedded(value reflect.Value, visit func(reflect.Value)) {
	if value.Kind() == reflect.Pointer {
		value = value.Elem()
	}
	if !value.IsValid() {
		return
	}
	visit(value)
	if value.Type() == reflect.TypeOf(Plugins{}) {
		for i := 0; i < value.Len(); i++ {
			upstreamWalkEmbedded(value.Index(i).Elem(), visit)
		}
		return
	}
	if value.Kind() != reflect.Struct {
		return
	}
	t := value.Type()
	for i := 0; i < value.NumField(); i++ {
		field := t.Field(i)
		if !field.IsExported() {
			continue
		}
		_, isEmbedded := field.Tag.Lookup("embed")
		if !isEmbedded && !field.Anonymous {
			continue
		}
		upstreamWalkEmbedded(value.Field(i), visit)
	}
}

type WalkInner struct{ Leaf string }

type walkHidden struct{ Hidden string }

type WalkOuter struct {
	WalkInner
	walkHidden
	*WalkPointed
	Tagged  WalkInner `embed:"" prefix:"t-"`
	Plain   WalkInner `help:"not embedded: no embed tag, not anonymous"`
	Plugins Plugins   `embed:""`
}

type WalkPointed struct {
	Deep WalkInner `embed:""`
}

// visits lists what walk visits, by type and address.
func visits(walk func(reflect.Value, func(reflect.Value)), value reflect.Value) []string {
	var out []string
	walk(value, func(v reflect.Value) {
		where := "-"
		if v.CanAddr() {
			where = fmt.Sprint(v.Addr().Pointer())
		}
		out = append(out, v.Type().String()+"@"+where)
	})
	return out
}

func TestWalkEmbeddedAgreesWithUpstream(t *testing.T) {
	withPointer := &WalkOuter{WalkPointed: &WalkPointed{}, Plugins: Plugins{&WalkInner{}, &WalkPointed{}}}
	for _, value := range []reflect.Value{
		reflect.ValueOf(&WalkOuter{}),
		reflect.ValueOf(withPointer),
		reflect.ValueOf(*withPointer),
		reflect.ValueOf(&WalkInner{}),
		reflect.ValueOf("a string"),
		reflect.ValueOf((*WalkOuter)(nil)),
	} {
		for round := 0; round < 2; round++ { // the second from the cache
			got, want := visits(walkEmbedded, value), visits(upstreamWalkEmbedded, value)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, round %d: visited %v, upstream %v", value.Type(), round, got, want)
			}
		}
	}
	if got := visits(walkEmbedded, reflect.ValueOf(withPointer)); len(got) != 9 {
		t.Errorf("visited %d values of WalkOuter, want 9 (itself, WalkInner, WalkPointed and its Deep, Tagged, Plugins and its two, and the second's Deep): %v", len(got), got)
	}
}

// hookedFlag records each AfterApply hook kong runs for a flag that got
// its value from its default, with the bindings it was given.
type hookedFlag string

var hookRuns []string

func (h hookedFlag) AfterApply(ctx *Context, path *Path) error {
	if ctx == nil || path == nil || path.Flag == nil {
		return fmt.Errorf("hook of %q without its bindings", string(h))
	}
	hookRuns = append(hookRuns, path.Flag.Name+"="+string(h))
	return nil
}

type hookedCLI struct {
	Plain  string     `default:"plain"` // no hook: the bindings are made for the next flag
	First  hookedFlag `default:"one"`
	Second hookedFlag `default:"two"`
	Given  hookedFlag `default:"unused"`
	Cmd    struct {
		Third hookedFlag `default:"three"`
	} `cmd:""`
}

func TestHooksOfDefaultFlagsGetTheirBindings(t *testing.T) {
	hookRuns = nil
	parser, err := New(&hookedCLI{}, Exit(func(int) { t.Fatal("exit") }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"--given=set", "cmd"}); err != nil {
		t.Fatal(err)
	}
	// --given was parsed: its hook runs in the path's pass, not as a default.
	want := map[string]bool{"given=set": true, "first=one": true, "second=two": true, "third=three": true}
	if len(hookRuns) != len(want) {
		t.Fatalf("hooks run: %v, want %v", hookRuns, want)
	}
	for _, run := range hookRuns {
		if !want[run] {
			t.Errorf("unexpected hook run %q (all: %v)", run, hookRuns)
		}
	}
}
