//go:build cloud

package train

import (
	"testing"

	"github.com/sliderzero/sliderzero/runstore/s3test"
)

// benchBuckets is an S3 bucket on loopback for the intake benchmark.
func benchBuckets(b *testing.B) []struct{ name, loc string } {
	return []struct{ name, loc string }{{"s3", s3test.Bucket(b, "bench")}}
}
