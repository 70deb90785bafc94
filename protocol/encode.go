package protocol

import "encoding/json"

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
func EncodeRequest(r *Request) ([]byte, error) {
	return encodeState(requestFields(*r), r.Extra)
}

// EncodeProgress is review_progress.json as specdev writes it.
func EncodeProgress(p *Progress) ([]byte, error) {
	fields := progressFields(*p)
	if fields.FilesReviewed == nil {
		fields.FilesReviewed = []string{}
	}
	if fields.FilesRemaining == nil {
		fields.FilesRemaining = []string{}
	}
	return encodeState(fields, p.Extra)
}

// encodeState marshals the method-free alias type directly (no Marshaler
// round trip, which would re-scan the whole output) and indents once.
func encodeState(fields any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	if data, err = appendExtra(data, extra); err != nil {
		return nil, err
	}
	return append(indent(data), '\n'), nil
}
