package protocol

import "encoding/json"

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
func EncodeRequest(r *Request) ([]byte, error) {
	fields := requestFields(*r)
	if fields.ChangedFiles == nil {
		fields.ChangedFiles = []string{}
	}
	return encodeState(RequestFile, fields, r.Extra)
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
	return encodeState(ProgressFile, fields, p.Extra)
}

// encodeState writes the method-free alias type (no Marshaler round trip,
// which would re-scan the whole output) indented. A file larger than the
// decoder reads is refused, not written.
func encodeState(file string, fields any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	if data, err = appendExtra(data, extra); err != nil {
		return nil, err
	}
	data = append(indent(data), '\n')
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "finish this review with fewer findings or files, or split the change",
			"would be %d bytes, more than the limit of %d that specdev reads", len(data), MaxFileSize)
	}
	return data, nil
}
