//go:build !cloud

package runstore

import (
	"context"
	"strings"
	"testing"
)

// Without the cloud build only folders are tested (go test -tags cloud
// adds an S3 server on loopback).
func bucketLocations(*testing.T) map[string]string { return nil }

// A bucket URL in the default build says how to get the cloud build.
func TestBucketsNeedTheCloudBuild(t *testing.T) {
	for _, loc := range []string{"s3://runs?region=us-east-1", "gs://runs/a", "azblob://runs"} {
		if _, err := Open(context.Background(), loc); err == nil || !strings.Contains(err.Error(), "-tags cloud") {
			t.Errorf("%s: %v", loc, err)
		}
	}
}
