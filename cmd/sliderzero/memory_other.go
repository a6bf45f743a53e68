//go:build !unix

package main

// peakMemory is unknown where the system does not report it.
func peakMemory() string { return "unknown" }
