//go:build cloud

package runstore

// The bucket drivers, in the cloud build only: their SDKs are most of the
// modules the project would otherwise download and build for everyone.
import (
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"
)

const cloudDrivers = true
