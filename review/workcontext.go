package review

import (
	"os"
	"strings"

	"github.com/specdev/specdev/checkpoint"
)

// workContext adds to the implementer's view where the review's report
// is, and which other assignments wait for a human: someone who creates
// a new assignment folder (which work then shows) still learns that an
// older one awaits a decision.
func (s *Service) workContext(a *checkpoint.Assignment, view Result) Result {
	report := reportPath(a)
	others := s.othersNeedingHuman(a.Name)
	var b strings.Builder
	b.WriteString(strings.TrimRight(view.Text, "\n"))
	if report != "" {
		b.WriteString("\nReport: " + report)
	}
	for _, n := range others {
		b.WriteString("\n" + alsoLine(n))
	}
	view.Text = b.String()
	if d, ok := view.Data.(workData); ok {
		d.Report, d.OthersNeed = report, others
		view.Data = d
	}
	return view
}

// reportPath is the report's path from the project root, or "" while
// there is none.
func reportPath(a *checkpoint.Assignment) string {
	if _, err := os.Lstat(a.Dir + "/" + checkpoint.ReportFile); err != nil {
		return ""
	}
	return a.RelDir() + "/" + checkpoint.ReportFile
}

// othersNeedingHuman lists the assignments other than name that wait for
// a human (as specdev status's "Needs a human"). It only peeks; one that
// cannot be read is left to status to report.
func (s *Service) othersNeedingHuman(name string) []NeedItem {
	entries, err := s.Store.Scan()
	if err != nil {
		return nil
	}
	var out []NeedItem
	for _, e := range entries {
		if e.Name == name || e.Err != nil {
			continue
		}
		if n, ok := needOf(rowOf(e, s.now(), s.Store.StaleAfter())); ok {
			out = append(out, n)
		}
	}
	return out
}
