package checkpoint

// Report reads the rendered review_report.md, never through a symlink;
// nil when there is none yet (no review was claimed).
func (a *Assignment) Report() ([]byte, error) { return a.readFile(ReportFile) }

// Lagging reports whether the report or the history lags the state files
// in snap, as a crash in the middle of a transaction may leave them;
// Fresh (or the next change) brings them up to date.
func (a *Assignment) Lagging(snap Snapshot) bool { return a.behind(snap) }
