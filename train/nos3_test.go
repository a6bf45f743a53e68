//go:build !cloud

package train

import "testing"

// benchBuckets: none without the cloud build.
func benchBuckets(*testing.B) []struct{ name, loc string } { return nil }
