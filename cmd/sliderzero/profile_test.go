package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileEnvWritesAProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	t.Setenv(profileEnv, path)
	stop, err := startProfile()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the profile is under its name before it is complete (%v)", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A pprof profile is a gzipped protocol buffer.
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("not a gzipped profile: % x", b[:min(len(b), 8)])
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatalf("temporary file left behind (%v)", err)
	}
}

func TestProfileEnvUnsetDoesNothing(t *testing.T) {
	t.Setenv(profileEnv, "")
	stop, err := startProfile()
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestProfileEnvBadPathNamesTheVariable(t *testing.T) {
	t.Setenv(profileEnv, filepath.Join(t.TempDir(), "missing", "cpu.prof"))
	if _, err := startProfile(); err == nil || !strings.Contains(err.Error(), profileEnv) {
		t.Fatalf("error %v, want one naming %s", err, profileEnv)
	}
}
