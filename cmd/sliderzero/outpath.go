package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkWritable refuses, before any work, an output path that is not a
// regular file or a new file in a folder that exists: renaming a finished
// file over a device, a FIFO or a folder would destroy it.
func checkWritable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("--out %s is not a regular file (%s); name a file", path, fi.Mode().Type())
	case err == nil:
		return nil
	case !os.IsNotExist(err):
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if di, err := os.Stat(filepath.Dir(path)); err != nil || !di.IsDir() {
		return fmt.Errorf("--out %s: the folder %s does not exist", path, filepath.Dir(path))
	}
	return nil
}
