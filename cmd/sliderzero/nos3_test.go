//go:build !cloud

package main

import "testing"

// buildFlags build the command under test as the tests were built.
var buildFlags []string

// s3Bucket: none without the cloud build.
func s3Bucket(*testing.T) string { return "" }
