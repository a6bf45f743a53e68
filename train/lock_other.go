//go:build !unix

package train

import "os"

// LockFile is the file a training process locks in its run folder.
const LockFile = "lock"

// lockDir does nothing where the OS lock is not available.
func lockDir(string) (*os.File, error) { return nil, nil }

func unlockDir(f *os.File) error { return nil }
