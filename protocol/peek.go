package protocol

// RequestPeek is the part of a request that a poll needs to decide whether
// there is work. Peeking decodes without schema validation, which is
// reserved for the files a command acts on or reports in full.
type RequestPeek struct {
	Version   int       `json:"version"`
	Status    Status    `json:"status"`
	RequestID string    `json:"request_id"`
	Timestamp Timestamp `json:"timestamp"`
	Gate      string    `json:"gate"`
	Round     int       `json:"round"`
	MaxRounds int       `json:"max_rounds"`
	Mode      Mode      `json:"mode"`

	ContinuedAt   Timestamp `json:"continued_at"`
	Group         string    `json:"group"`
	Checkpoint    bool      `json:"checkpoint"`
	BlockedReason string    `json:"blocked_reason"`
}

// PeekRequest decodes the fields a poll needs from review_request.json.
func PeekRequest(file string, data []byte) (RequestPeek, error) {
	var p RequestPeek
	if err := peekInto(data, &p); err != nil {
		return p, invalid(file, "", hintHandEdit, "is not valid JSON: %v", err)
	}
	return CheckRequestPeek(file, p)
}

// CheckRequestPeek applies to a peeked request the checks PeekRequest
// makes, wherever the peek came from (a poll's cache keeps peeks, and
// trusts none it would refuse to read from the file), and fills in the
// round a first request may leave out.
func CheckRequestPeek(file string, p RequestPeek) (RequestPeek, error) {
	if p.Version > RequestVersion {
		return p, invalid(file, "version", "upgrade specdev to a release that reads this version",
			"version %d is newer than this specdev supports (%d)", p.Version, RequestVersion)
	}
	if !p.Status.Valid() {
		return p, invalid(file, "status", "use one of pending, in_progress, awaiting_approval, passed, failed, blocked, cancelled",
			"value %s is not a known status", QuotePrefix(string(p.Status)))
	}
	if p.Round == 0 {
		p.Round = 1
	}
	return p, nil
}

// ProgressPeek is the part of a progress file that a poll needs to find a
// session's own review or a stale one.
type ProgressPeek struct {
	SessionID      string    `json:"session_id"`
	Lease          string    `json:"lease"`
	LastActivity   Timestamp `json:"last_activity"`
	RequestID      string    `json:"request_id"`
	Phase          Phase     `json:"phase"`
	FilesTotal     int       `json:"files_total"`
	FilesReviewed  []string  `json:"files_reviewed"`
	FindingsSoFar  int       `json:"findings_so_far"`
	FilesRemaining []string  `json:"files_remaining"`
}

// PeekProgress decodes the fields a poll needs from review_progress.json.
func PeekProgress(file string, data []byte) (ProgressPeek, error) {
	var p ProgressPeek
	if err := peekInto(data, &p); err != nil {
		return p, invalid(file, "", hintHandEdit, "is not valid JSON: %v", err)
	}
	return p, nil
}
