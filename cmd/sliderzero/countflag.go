package main

import (
	"flag"
	"fmt"
	"strconv"
)

// countFlag is an int flag that refuses a negative value as it is parsed,
// so that every command with the flag refuses it the same way.
type countFlag int

func (c *countFlag) String() string { return strconv.Itoa(int(*c)) }
func (c *countFlag) Get() any       { return int(*c) }

func (c *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number of at least 0")
	}
	*c = countFlag(n)
	return nil
}

// countVar defines a countFlag.
func countVar(fs *flag.FlagSet, name string, def int, usage string) *int {
	c := countFlag(def)
	fs.Var(&c, name, usage)
	return (*int)(&c)
}

// flagGiven reports whether the command line set the named flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// rangeFlag is an int flag that refuses a value outside [lo, hi] as it is
// parsed.
type rangeFlag struct {
	v      *int
	lo, hi int
}

func (r rangeFlag) String() string {
	if r.v == nil {
		return "0"
	}
	return strconv.Itoa(*r.v)
}
func (r rangeFlag) Get() any { return *r.v }

func (r rangeFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < r.lo || n > r.hi {
		return fmt.Errorf("want a whole number from %d to %d", r.lo, r.hi)
	}
	*r.v = n
	return nil
}

// rangeVar defines a rangeFlag.
func rangeVar(fs *flag.FlagSet, name string, def, lo, hi int, usage string) *int {
	v := def
	fs.Var(rangeFlag{&v, lo, hi}, name, usage)
	return &v
}
