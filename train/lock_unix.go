//go:build unix

package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFile is the file a training process locks in its run folder.
const LockFile = "lock"

// lockDir takes the run folder's lock: an OS lock on a file, which the
// kernel releases however the process ends (kill -9 included). A second
// process is refused with the holder's pid.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := strings.TrimSpace(string(holder))
			if pid == strconv.Itoa(os.Getpid()) {
				return nil, fmt.Errorf("%s is already open for training in this process", dir)
			}
			if pid == "" {
				pid = "unknown"
			}
			return nil, fmt.Errorf("%s is being trained by another process (pid %s); wait for it to end, or stop it", dir, pid)
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// unlockDir releases the lock.
func unlockDir(f *os.File) error {
	if f == nil {
		return nil
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return f.Close()
}
