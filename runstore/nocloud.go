//go:build !cloud

package runstore

// cloudDrivers tells whether this build has the bucket drivers (build tag
// cloud); without them a bucket URL gets an error that says how to build
// them in.
const cloudDrivers = false
