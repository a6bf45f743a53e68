//go:build cloud

package runstore

import (
	"testing"

	"github.com/sliderzero/sliderzero/runstore/s3test"
)

// bucketLocations are the bucket stores the cloud build tests beside
// folders.
func bucketLocations(t *testing.T) map[string]string {
	return map[string]string{"s3": s3test.Bucket(t, "")}
}
