//go:build cloud

// Package s3test serves an S3 bucket on loopback for the cloud build's
// tests (gofakes3, in memory).
package s3test

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Bucket starts an S3-compatible server with an empty bucket "runs" for
// the test's lifetime and returns the URL of prefix in it (the bucket's
// root for ""), with the endpoint and credentials the drivers need.
func Bucket(t testing.TB, prefix string) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("runs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	loc := "s3://runs"
	if prefix != "" {
		loc += "/" + prefix
	}
	return loc + "?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true"
}
