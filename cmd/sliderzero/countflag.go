package main

import (
	"flag"
	"fmt"
	"math"
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
// parsed; why, when given, says where the bound comes from.
type rangeFlag struct {
	v      *int
	lo, hi int
	why    string
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
		if r.why != "" {
			return fmt.Errorf("want a whole number %s (%s)", r.span(), r.why)
		}
		return fmt.Errorf("want a whole number %s", r.span())
	}
	*r.v = n
	return nil
}

// span says the range in words: "from 1 to 256", "of at least 1".
func (r rangeFlag) span() string {
	if r.hi == math.MaxInt {
		return fmt.Sprintf("of at least %d", r.lo)
	}
	return fmt.Sprintf("from %d to %d", r.lo, r.hi)
}

// rangeVar defines a rangeFlag.
func rangeVar(fs *flag.FlagSet, name string, def, lo, hi int, usage string) *int {
	v := def
	fs.Var(rangeFlag{v: &v, lo: lo, hi: hi}, name, usage)
	return &v
}
