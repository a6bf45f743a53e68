//go:build unix

package store

import (
	"os"
	"syscall"
)

// openRead opens a file for reading without blocking: opening a FIFO for
// reading waits for a writer, which may never come.
func openRead(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
