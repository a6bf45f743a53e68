//go:build cloud

package main

import (
	"testing"

	"github.com/sliderzero/sliderzero/runstore/s3test"
)

// buildFlags build the command under test as the tests were built.
var buildFlags = []string{"-tags", "cloud"}

// s3Bucket is a bucket on a loopback S3 server.
func s3Bucket(t *testing.T) string { return s3test.Bucket(t, "dist") }
