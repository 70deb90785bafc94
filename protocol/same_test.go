package protocol

import (
	"reflect"
	"testing"
)

// Same tells a request from its clone with any one field changed (unset,
// or set when the base request leaves it unset), and from one whose big maps differ
// in a single entry; a nil and an empty list or map, which encode alike,
// are the same.
func TestRequestSame(t *testing.T) {
	base := baseRequest()
	if c := base.Clone(); !base.Same(&c) {
		t.Fatal("a request is not the same as its clone")
	}
	typ := reflect.TypeFor[Request]()
	for i := 0; i < typ.NumField(); i++ {
		t.Run(typ.Field(i).Name, func(t *testing.T) {
			c := base.Clone()
			f := reflect.ValueOf(&c).Elem().Field(i)
			switch {
			case !f.IsZero():
				f.SetZero()
			case f.Kind() == reflect.String:
				f.SetString("x")
			default:
				t.Fatalf("the base request leaves %s unset", typ.Field(i).Name)
			}
			if base.Same(&c) || c.Same(base) {
				t.Errorf("Same misses a change of %s", typ.Field(i).Name)
			}
		})
	}
	changes := []struct {
		name   string
		change func(*Request)
		same   bool
	}{
		{"one file digest", func(r *Request) { r.FileDigests["a.go"] = DigestDeleted }, false},
		{"one carried digest", func(r *Request) { r.CarriedDigests["d.go"] = DigestDeleted }, false},
		{"one changed file", func(r *Request) { r.ChangedFiles[1] = "c.go" }, false},
		{"a passed review's files", func(r *Request) { p := r.Passed["review"]; p.Files = []string{"b.go"}; r.Passed["review"] = p }, false},
		{"a passed review's digests", func(r *Request) {
			p := r.Passed["review"]
			p.FileDigests = map[string]string{"a.go": DigestDeleted}
			r.Passed["review"] = p
		}, false},
		{"a passed review's commit", func(r *Request) { p := r.Passed["review"]; p.HeadCommit = "fff"; r.Passed["review"] = p }, false},
		{"another gate passed", func(r *Request) { r.Passed["other"] = basePassRecord() }, false},
		{"empty instead of nil", func(r *Request) { r.ChangedFiles, r.FileDigests = []string{}, map[string]string{} }, true},
	}
	for _, tt := range changes {
		t.Run(tt.name, func(t *testing.T) {
			a, b := base.Clone(), base.Clone()
			if tt.same {
				a.ChangedFiles, a.FileDigests = nil, nil
			}
			tt.change(&b)
			if got := a.Same(&b); got != tt.same {
				t.Errorf("Same = %v, want %v", got, tt.same)
			}
		})
	}
}
