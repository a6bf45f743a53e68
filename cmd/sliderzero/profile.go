package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileEnv names the environment variable that makes any command write a
// CPU profile of its whole run to the file it gives: how the build's own
// profile-guided optimisation profile (default.pgo) is made, and a way for
// a user to show where a slow command spends its time.
const profileEnv = "SLIDERZERO_CPUPROFILE"

// startProfile starts the CPU profile that profileEnv asks for, if any,
// and returns what stops it and puts the file in place (written to a
// temporary name until then, so that a killed run leaves no half-written
// profile under the name asked for).
func startProfile() (stop func() error, err error) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() error { return nil }, nil
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("%s: %w", profileEnv, err)
		}
		return os.Rename(tmp, path)
	}, nil
}
