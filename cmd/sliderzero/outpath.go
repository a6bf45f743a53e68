package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sliderzero/sliderzero/player"
)

// checkOutput refuses, before any work, an output path (given by flag)
// that could not be written at the end: not a regular file or a new file,
// in a folder that does not exist or that this user cannot write to.
// Renaming a finished file over a device, a FIFO or a folder would
// destroy it, and a path refused after an hour's games loses them.
//
// It is also the rule of outputs: a command never replaces a file that
// exists unless told to (force: --force), and never one of its own inputs
// (the files it reads, player files named in specs included), whatever it
// is told.
func checkOutput(flag, path string, force bool, inputs ...string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s %s is %s, not a file; name a file", flag, path, kindOf(fi.Mode()))
	case err != nil && !os.IsNotExist(err):
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if err == nil {
		for _, in := range inputs {
			if ii, ierr := os.Stat(in); in != "" && ierr == nil && os.SameFile(fi, ii) {
				return fmt.Errorf("%s %s is one of the command's inputs (%s); name another file", flag, path, in)
			}
		}
		if !force {
			return fmt.Errorf("%s %s exists; give --force to replace it, or name another file", flag, path)
		}
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

// forceVar defines --force, which lets a command replace its output files.
func forceVar(fs *flag.FlagSet) *bool {
	return fs.Bool("force", false, "replace an output file that exists (never one of the command's inputs)")
}

// specFiles are the files the player specs name (player:FILE,
// net:checkpoint=FILE, solver:table=FILE): inputs no output may replace.
func specFiles(specs ...string) []string {
	var out []string
	for _, text := range specs {
		sp, err := player.ParseSpec(text)
		if err != nil {
			continue
		}
		switch sp.Kind {
		case "player", "net", "solver":
			out = append(out, sp.Arg, sp.Options["checkpoint"], sp.Options["table"])
		}
	}
	return out
}

// distinctOutputs refuses two output flags naming one file: the second
// written would replace the first.
func distinctOutputs(outputs ...[2]string) error {
	for i, a := range outputs {
		for _, b := range outputs[i+1:] {
			if a[1] != "" && filepath.Clean(a[1]) == filepath.Clean(b[1]) {
				return usageError{fmt.Errorf("%s and %s name the same file, %s", a[0], b[0], a[1])}
			}
		}
	}
	return nil
}

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
