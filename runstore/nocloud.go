//go:build !cloud

package runstore

import (
	"context"
	"fmt"
	"strings"
)

// openBucket, without the cloud build, says how to get it.
func openBucket(_ context.Context, location string) (backend, error) {
	if scheme, _, _ := strings.Cut(location, "://"); cloudSchemes[scheme] {
		return nil, fmt.Errorf("%s: bucket storage (s3://, gs://, azblob://) is in the cloud build only: go build -tags cloud ./cmd/sliderzero (deploy/Dockerfile builds it); folders and file:// work in every build", location)
	}
	return nil, fmt.Errorf("location %q: want a folder, a file:// URL, or (cloud build) s3://, gs:// or azblob://", location)
}
