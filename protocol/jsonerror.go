package protocol

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// readJSON decodes data, one whole document, into v (a pointer) with the
// decoder of jsondecode.go, refusing unknown keys in every object if
// strict. What it refuses is an *InvalidError naming file and field.
func readJSON(file, schema string, data []byte, v any, strict bool) error {
	r := readings.Get().(*reading)
	defer readings.Put(r)
	r.text = ""
	if len(data) >= 16<<10 {
		r.text = string(data)
	}
	err := json.Unmarshal(data, v, r.opts, json.RejectUnknownMembers(strict), jsontext.AllowDuplicateNames(true))
	r.text = "" // the pool holds no document
	if rv := reflect.ValueOf(v).Elem(); err == nil && rv.Kind() == reflect.Slice && rv.IsNil() {
		err = fail("", "", "expected array, but got null") // the one null v2 would take: a list of findings
	}
	if err != nil {
		return describe(err, file, schema, data, reflect.TypeOf(v).Elem())
	}
	return nil
}

const hintSpelling = "check the spelling"

// describe turns an error of the decoder of a document of type t into
// an *InvalidError naming file and field.
func describe(err error, file, schema string, data []byte, t reflect.Type) error {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	var inv *InvalidError
	hint := "run `specdev schema " + schema + "` to see every field and its type"
	switch {
	case errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return invalid(file, pointerField(t, syn.JSONPointer), "keep one of them",
			"key %s appears twice in the same object", QuotePrefix(syn.JSONPointer.LastToken()))
	case errors.As(err, &syn):
		offset, problem := syn.ByteOffset, syn.Err.Error()
		if errors.Is(syn.Err, io.ErrUnexpectedEOF) {
			offset, problem = int64(len(bytes.TrimRight(data, " \t\r\n"))), "the document ends too early"
		}
		line, col := position(data, offset)
		return invalid(file, "", hintHandEdit, "is not valid JSON (line %d, column %d): %s", line, col, problem)
	case !errors.As(err, &sem):
		return invalid(file, "", hint, "%v", err)
	case errors.As(sem.Err, &inv):
		if inv.Hint == hintSpelling {
			hint = hintSpelling + "; " + hint
		} else if inv.Hint != "" {
			hint = inv.Hint
		}
		return invalid(file, pointerField(t, sem.JSONPointer), hint, "%s", inv.Problem)
	case sem.JSONKind == '0' && sem.Err != nil: // a number no float64 holds
		return invalid(file, pointerField(t, sem.JSONPointer), hint, "is %s, out of the range of any number here", QuotePrefix(string(sem.JSONValue)))
	}
	want := "another kind of value"
	if sem.GoType != nil {
		_, want, _ = readerOf(sem.GoType)
	}
	return invalid(file, pointerField(t, sem.JSONPointer), hint, "expected %s, but got %s", want, kindName(sem.JSONKind))
}

// pointerField names the value at ptr in a document decoded into t as an
// error names a field: findings[3].line, file_digests.src/a.go.
func pointerField(t reflect.Type, ptr jsontext.Pointer) string {
	field := ""
	for tok := range ptr.Tokens() {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		index := false
		switch {
		case t == nil || t.Kind() == reflect.Interface: // any value: an index is a number
			_, err := strconv.Atoi(tok)
			index, t = err == nil, nil
		case t.Kind() == reflect.Slice:
			index, t = true, t.Elem()
		case t.Kind() == reflect.Map:
			t = t.Elem()
		case t.Kind() == reflect.Struct:
			f := planOf(t).fields[tok]
			t = nil
			if f != nil {
				t = f.typ
			}
		}
		if index {
			field += "[" + tok + "]"
		} else {
			field = subField(field, tok)
		}
	}
	return field
}

// position converts a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	before := data[:min(max(offset, 0), int64(len(data)))]
	return bytes.Count(before, []byte("\n")) + 1, len(before) - bytes.LastIndexByte(before, '\n')
}
