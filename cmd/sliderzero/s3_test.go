//go:build cloud

package main

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// buildFlags build the command under test as the tests were built.
var buildFlags = []string{"-tags", "cloud"}

// s3Bucket starts an S3 server on loopback with a bucket and returns its
// URL.
func s3Bucket(t *testing.T) string {
	backend := s3mem.New()
	if err := backend.CreateBucket("runs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	return "s3://runs/dist?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true"
}
