//go:build unix

package main

import (
	"fmt"
	"runtime"
	"syscall"
)

// peakMemory is the process's peak resident memory.
func peakMemory() string {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss == 0 {
		return "unknown"
	}
	kb := ru.Maxrss
	if runtime.GOOS == "darwin" {
		kb /= 1024 // bytes there
	}
	return fmt.Sprintf("%.0f MB", float64(kb)/1024)
}
