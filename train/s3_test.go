//go:build cloud

package train

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// benchBuckets starts an S3 server on loopback for the intake benchmark.
func benchBuckets(b *testing.B) []struct{ name, loc string } {
	backend := s3mem.New()
	backend.CreateBucket("runs")
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	b.Cleanup(srv.Close)
	b.Setenv("AWS_ACCESS_KEY_ID", "test")
	b.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return []struct{ name, loc string }{{"s3", "s3://runs/bench?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true"}}
}
