//go:build !unix

package store

import "os"

func openRead(path string) (*os.File, error) { return os.Open(path) }
