package protocol

import "encoding/json"

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
func EncodeRequest(r *Request) ([]byte, error) { return encodeState(RequestFile, r.fields(), r.Extra) }

// EncodeProgress is review_progress.json as specdev writes it.
func EncodeProgress(p *Progress) ([]byte, error) {
	return encodeState(ProgressFile, p.fields(), p.Extra)
}

// marshalState encodes the method-free alias type of a state file (no
// Marshaler round trip, which would re-scan the whole output), then the
// kept unknown fields.
func marshalState(fields any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return appendExtra(data, extra)
}

// encodeState is marshalState indented. A file larger than the decoder
// reads is refused, not written.
func encodeState(file string, fields any, extra Extra) ([]byte, error) {
	data, err := marshalState(fields, extra)
	if err != nil {
		return nil, err
	}
	data = append(indent(data), '\n')
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "finish this review with fewer findings or files, or split the change",
			"would be %d bytes, more than the limit of %d that specdev reads", len(data), MaxFileSize)
	}
	return data, nil
}
