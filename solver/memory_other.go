//go:build !linux && !darwin

package solver

// physicalMemory is unknown here: MaxTableMB falls back to its default.
func physicalMemory() uint64 { return 0 }
