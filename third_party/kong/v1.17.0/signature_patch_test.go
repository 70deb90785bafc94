package kong

// Tests of the specdev patch kong-tag-signature: parseTag asks a type for
// its Signature without making a zero value of it when its pointer has no
// Signature method, and uses the field's items as they are when there is
// no signature to overlay.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// upstreamParseTag and upstreamMaybeGetSignature are v1.17.0's.
func upstreamParseTag(parent reflect.Value, ft reflect.StructField) (*Tag, error) {
	if ft.Tag.Get("kong") == "-" {
		t := newEmptyTag()
		t.Ignored = true
		return t, nil
	}
	items := map[string][]string{}
	signatureTag, ok := upstreamMaybeGetSignature(ft.Type)
	if ok {
		signatureItems, err := parseStructTagItems(signatureTag)
		if err != nil {
			return nil, err
		}
		items = signatureItems
	}
	fieldItems, err := parseStructTagItems(ft.Tag)
	if err != nil {
		return nil, err
	}
	for key, value := range fieldItems {
		items[key] = append(value, items[key]...)
	}
	t := &Tag{
		items: items,
	}
	err = hydrateTag(t, ft.Type)
	if err != nil {
		return nil, failField(parent, ft, "%s", err)
	}
	return t, nil
}

func upstreamMaybeGetSignature(t reflect.Type) (reflect.StructTag, bool) {
	ut := t
	if ut.Kind() == reflect.Pointer {
		ut = ut.Elem()
	}
	ptr := reflect.New(ut)
	var sig string
	for _, v := range []reflect.Value{ptr, ptr.Elem()} {
		if v.Type().Implements(signatureOverrideType) {
			sig = v.Interface().(Signature).Signature() //nolint:forcetypeassert
			break
		}
	}
	sig = strings.TrimSpace(sig)
	if sig == "" {
		return "", false
	}
	return reflect.StructTag(sig), true
}

type signedByValue string

func (signedByValue) Signature() string { return `help:"from the signature" default:"sig" env:"SIG_A"` }

type signedByPointer struct{ N int }

func (*signedByPointer) Signature() string { return `name:"signed" help:"pointer signature" hidden:""` }

type signedBlank int

func (signedBlank) Signature() string { return "   " }

type signedBad bool

func (signedBad) Signature() string { return `help:"unterminated` }

type signatureFields struct {
	Plain       string            `help:"plain" default:"p" env:"PLAIN_A,PLAIN_B"`
	Number      int               `name:"num" short:"n" placeholder:"N"`
	Ignored     string            `kong:"-"`
	KongTag     string            `kong:"name='k',help='in the kong tag'" default:"kd"`
	Slice       []string          `sep:";" help:"a slice"`
	Map         map[string]string `mapsep:"," help:"a map"`
	Pointer     *signatureFields  `embed:"" prefix:"p-"`
	ByValue     signedByValue     `help:"the field's help wins"`
	ByValueBare signedByValue
	ByPointer   signedByPointer `default:"unused"`
	ByPointerP  *signedByPointer
	Blank       signedBlank     `help:"blank signature"`
	Bad         signedBad       `help:"bad signature"`
	Enum        string          `enum:"a,b" default:"a"`
	BadEnum     string          `enum:"a,b"`
	Untagged    any             `help:"an interface"`
	Struct      struct{ A int } `cmd:"" aliases:"s,st"`
}

func TestParseTagAgreesWithUpstream(t *testing.T) {
	parent := reflect.ValueOf(&signatureFields{}).Elem()
	typ := parent.Type()
	signed := 0
	for i := 0; i < typ.NumField(); i++ {
		ft := typ.Field(i)
		got, gotErr := parseTag(parent, ft)
		want, wantErr := upstreamParseTag(parent, ft)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v (%v), upstream %+v (%v)", ft.Name, got, gotErr, want, wantErr)
		}
		if _, ok := upstreamMaybeGetSignature(ft.Type); ok {
			signed++
		}
	}
	if signed < 4 {
		t.Errorf("%d fields have a signature, want the test's 4 or more", signed)
	}
}
