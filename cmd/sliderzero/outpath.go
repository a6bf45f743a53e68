package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutput refuses, before any work, an output path (given by flag)
// that could not be written at the end: not a regular file or a new file,
// in a folder that does not exist or that this user cannot write to.
// Renaming a finished file over a device, a FIFO or a folder would
// destroy it, and a path refused after an hour's games loses them.
func checkOutput(flag, path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s %s is %s, not a file; name a file", flag, path, kindOf(fi.Mode()))
	case err != nil && !os.IsNotExist(err):
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	dir := filepath.Dir(path)
	if di, err := os.Stat(dir); err != nil || !di.IsDir() {
		return fmt.Errorf("%s %s: the folder %s does not exist", flag, path, dir)
	}
	// Permissions alone do not say (root, read-only mounts, ACLs): try.
	probe, err := os.CreateTemp(dir, ".sliderzero-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in the folder %s: %v", flag, path, dir, unwrapPath(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// checkWritable is checkOutput for --out.
func checkWritable(path string) error { return checkOutput("--out", path) }

// kindOf names a file's kind for people.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// unwrapPath drops a path error's operation and (temporary) path, which
// would name the probe rather than the user's file.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
