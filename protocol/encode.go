package protocol

import "encoding/json"

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
func EncodeRequest(r *Request) ([]byte, error) { return EncodeRequestSized(r, 0) }

// EncodeRequestSized is EncodeRequest given about how long the result
// will be (the length of the file it replaces), so that it is allocated
// once: a 1,000-file request grown by appending would be copied a dozen
// times.
func EncodeRequestSized(r *Request, size int) ([]byte, error) {
	fields := requestFields(*r)
	if fields.ChangedFiles == nil {
		fields.ChangedFiles = []string{}
	}
	return encodeState(RequestFile, fields, r.Extra, size)
}

// EncodeProgress is review_progress.json as specdev writes it.
func EncodeProgress(p *Progress) ([]byte, error) { return EncodeProgressSized(p, 0) }

// EncodeProgressSized is EncodeProgress given about how long the result
// will be (see EncodeRequestSized).
func EncodeProgressSized(p *Progress, size int) ([]byte, error) {
	fields := progressFields(*p)
	if fields.FilesReviewed == nil {
		fields.FilesReviewed = []string{}
	}
	if fields.FilesRemaining == nil {
		fields.FilesRemaining = []string{}
	}
	return encodeState(ProgressFile, fields, p.Extra, size)
}

// encodeState writes the method-free alias type (no Marshaler round trip,
// which would re-scan the whole output) indented, with the fast encoder
// or else with json.Marshal and indent. A file larger than the decoders
// read is refused, not written.
func encodeState(file string, fields any, extra Extra, size int) ([]byte, error) {
	data, err := encodeIndented(fields, extra, size+size/8+1024)
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "finish this review with fewer findings or files, or split the change",
			"would be %d bytes, more than the limit of %d that specdev reads", len(data), MaxFileSize)
	}
	return data, nil
}

// encodeIndented is the document without its final newline.
func encodeIndented(fields any, extra Extra, size int) ([]byte, error) {
	if data, ok := encodeFast(fields, extra, size); ok {
		return data, nil
	}
	return encodeSlow(fields, extra)
}

// encodeSlow is encodeIndented by json.Marshal and indent.
func encodeSlow(fields any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	if data, err = appendExtra(data, extra); err != nil {
		return nil, err
	}
	return indent(data), nil
}
