package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestValidateAgreesWithSchemas is the property that holds the Go checks
// and the published schemas to one verdict: for every type that reaches a
// file, and for every field of it (nested ones included), set the field to
// each of a pool of extreme values — negative and huge numbers, strings at
// and just past every limit (in ASCII, in two-byte characters, in invalid
// UTF-8), odd Unicode, empty values, too many items — and check that
//   - Validate accepts the value exactly when the decoder accepts the
//     bytes it is written as, naming the same field (so a value is checked
//     on write by the rules it is read by);
//   - the decoder's shape checks (its JSON rules, then each type's shape
//     half of Validate) accept those bytes exactly when the JSON Schema
//     does, naming the same field (the semantic half checks what no schema
//     can say: safe paths, consistent counts);
//   - whatever is accepted round-trips: decoding what encoding wrote and
//     encoding it again gives the same bytes.
//
// TestShapeAgreesWithSchemasOnJSON does the same for JSON that no Go value
// encodes to (nulls, wrong kinds, missing keys), and
// TestAgreementCatchesADoctoredSchema shows both can fail.
func TestValidateAgreesWithSchemas(t *testing.T) {
	for _, root := range propertyRoots() {
		t.Run(root.name, func(t *testing.T) {
			t.Parallel()
			cs, err := schemaFor(root.schema)
			if err != nil {
				t.Fatal(err)
			}
			if problems := root.check(cs, "base"); len(problems) > 0 || root.validate() != nil {
				t.Fatalf("the base value is invalid: %v %q", root.validate(), problems)
			}
			problems, n := root.sweep(cs, "")
			for _, p := range problems {
				t.Error(p)
			}
			t.Logf("%d values checked", n)
		})
	}
}

// sweep mutates every field of the root's value in turn (of those whose
// path starts with only) and returns what check finds, and how many
// values it checked.
func (r propertyRoot) sweep(cs *compiledSchema, only string) (problems []string, n int) {
	m := mutator{valid: func() bool { return r.validate() == nil }, seen: map[reflect.Type]bool{},
		visit: func(site, desc string) {
			if !strings.HasPrefix(site, only) {
				return
			}
			n++
			problems = append(problems, r.check(cs, site+" = "+desc)...)
		}}
	m.mutate(reflect.ValueOf(r.value).Elem(), r.name)
	return problems, n
}

type propertyRoot struct {
	name      string
	schema    string // the schema of its file
	value     any    // pointer to the value that mutate changes in place
	validate  func() error
	encode    func() ([]byte, error) // the value as specdev writes it
	canonical func() ([]byte, error) // the same with the decoder's defaults applied
	decode    func([]byte) (any, error)
	shape     func([]byte) error        // the decoder with the shape half of Validate only
	encodeAny func(any) ([]byte, error) // encodes what decode returned
}

// check compares Validate with the decoder, and the decoder's shape
// checks with the schema, for the current value; it returns what
// disagrees.
func (r propertyRoot) check(cs *compiledSchema, what string) (problems []string) {
	verr := r.validate()
	data, encErr := r.encode()
	derr := encErr
	if encErr == nil {
		_, derr = r.decode(data)
	}
	switch {
	case (verr == nil) != (derr == nil):
		problems = append(problems, fmt.Sprintf("%s: Validate says %v, the decoder says %v", what, short(verr), short(derr)))
	case verr != nil && encErr == nil && !sameField(fieldOf(verr), fieldOf(derr)):
		problems = append(problems, fmt.Sprintf("%s: Validate names field %q (%v), the decoder %q (%v)", what, fieldOf(verr), short(verr), fieldOf(derr), short(derr)))
	case verr == nil && len(data) < 64<<10: // larger values add time, not cases
		if problem := r.roundTrip(); problem != "" {
			problems = append(problems, what+": "+problem)
		}
	}
	if encErr == nil {
		if problem := r.disagreement(cs, data); problem != "" {
			problems = append(problems, what+": "+problem)
		}
	}
	return problems
}

// disagreement compares the decoder's shape checks with the schema cs on
// data: "" when they agree.
func (r propertyRoot) disagreement(cs *compiledSchema, data []byte) string {
	gerr := r.shape(data)
	serr := cs.verdict(r.schema, "doc", data)
	switch {
	case gerr != nil && beyondSchema(gerr):
	case (gerr == nil) != (serr == nil):
		return fmt.Sprintf("the decoder says %v, the schema says %v", short(gerr), short(serr))
	case gerr != nil && !sameField(fieldOf(gerr), fieldOf(serr)):
		return fmt.Sprintf("the decoder names field %q (%v), the schema %q (%v)", fieldOf(gerr), short(gerr), fieldOf(serr), short(serr))
	}
	return ""
}

// roundTrip: decoding what encoding wrote and encoding it again gives the
// same bytes (once the decoder's defaults are applied). Invalid UTF-8,
// which encoding writes as U+FFFD, takes one more turn to settle.
func (r propertyRoot) roundTrip() string {
	data, err := r.canonical()
	if err != nil {
		return fmt.Sprintf("encoding: %v", err)
	}
	again, err := r.reencode(data)
	if err == nil && !bytes.Equal(again, data) && bytes.Contains(data, []byte(`\ufffd`)) {
		data = again
		again, err = r.reencode(data)
	}
	switch {
	case err != nil:
		return fmt.Sprintf("decoding or encoding what was written: %v", err)
	case !bytes.Equal(again, data):
		return fmt.Sprintf("does not round-trip:\n%s\n%s", clip(data), clip(again))
	}
	return ""
}

func (r propertyRoot) reencode(data []byte) ([]byte, error) {
	v, err := r.decode(data)
	if err != nil {
		return nil, err
	}
	return r.encodeAny(v)
}

// beyondSchema reports whether err breaks one of the decoder's rules that
// no JSON Schema states: nesting depth, a key given twice or in another
// case (a schema sees the document after a JSON reader kept one of the
// keys), and a config duration's range however it is written (the schema
// bounds numbers of seconds only: it cannot read "15m"), and a number
// past what a float64 holds where any value may stand (a detail).
func beyondSchema(err error) bool {
	var inv *InvalidError
	if !errors.As(err, &inv) {
		return false
	}
	for _, rule := range []string{"nests deeper than", "appears twice in the same object", "keys must match exactly"} {
		if strings.Contains(inv.Problem, rule) {
			return true
		}
	}
	agentTimeout := strings.HasPrefix(inv.Field, "agents.") && strings.HasSuffix(inv.Field, ".timeout")
	durationField := slices.Contains([]string{"stale_after", "lock_timeout", "preflight_timeout", "remote_poll"}, inv.Field) || agentTimeout
	return strings.Contains(inv.Problem, "out of range") && durationField ||
		strings.Contains(inv.Problem, "out of the range of any number") && strings.Contains(inv.Field, "detail.")
}

// sameField: both name the same field, or one names a field inside the
// other (a nesting too deep is named where it starts or where it ends).
func sameField(a, b string) bool {
	// Validate names a map entry field["key"], the decoder field.key
	a, b = mapEntryDots(a), mapEntryDots(b)
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || strings.HasPrefix(b, a) && (b[len(a)] == '.' || b[len(a)] == '[')
}

func mapEntryDots(field string) string {
	return strings.NewReplacer(`["`, ".", `"]`, "").Replace(field)
}

func fieldOf(err error) string {
	var inv *InvalidError
	if errors.As(err, &inv) {
		return inv.Field
	}
	return "(not an InvalidError)"
}

func short(err error) string {
	if err == nil {
		return "ok"
	}
	return clip([]byte(err.Error()))
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}
