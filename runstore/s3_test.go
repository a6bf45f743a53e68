//go:build cloud

package runstore

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// s3Location starts an S3-compatible server (gofakes3, a Go module) on
// loopback with an empty bucket, and returns the bucket's URL.
func s3Location(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("runs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return "s3://runs?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true"
}

// bucketLocations are the bucket stores the cloud build tests beside
// folders.
func bucketLocations(t *testing.T) map[string]string { return map[string]string{"s3": s3Location(t)} }
