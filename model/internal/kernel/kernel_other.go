//go:build !amd64

package kernel

var impl = none

// choose has nothing to choose from here.
func choose(string) kernels { return none }
