package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specdev/specdev/review"
)

// resourcePrefix starts every resource's URI: specdev://assignments/{id}/{file}.
const resourcePrefix = "specdev://assignments/"

// addResources offers each assignment's report, request and progress as
// resources, through one template each ({id} is a full assignment name
// or a unique prefix).
func (c *conn) addResources(s *mcp.Server) {
	for _, f := range []struct{ which, mime, desc string }{
		{review.FileReport, "text/markdown", "The assignment's review report (review_report.md)."},
		{review.FileRequest, "application/json", "The assignment's review request (review_request.json)."},
		{review.FileProgress, "application/json", "The reviewer's checkpoint (review_progress.json)."},
	} {
		s.AddResourceTemplate(&mcp.ResourceTemplate{Name: f.which, URITemplate: resourcePrefix + "{id}/" + f.which,
			MIMEType: f.mime, Description: f.desc}, c.readResource(f.which, f.mime))
	}
}

func (c *conn) readResource(which, mime string) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		id, ok := strings.CutSuffix(strings.TrimPrefix(uri, resourcePrefix), "/"+which)
		if !ok || id == "" || strings.Contains(id, "/") {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		doc, err := c.service(id).File(ctx, which)
		if err != nil {
			if hint := review.HintOf(err); hint != "" {
				return nil, fmt.Errorf("%w (hint: %s)", err, hint)
			}
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: doc.Content}}}, nil
	}
}
