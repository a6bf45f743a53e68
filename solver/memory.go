package solver

import (
	"os"
	"strconv"
	"strings"
	"sync"
)

// The memory the exact solvers and provers may take: every table size a
// user gives (solve --table-mb, sets --mb, the perfect player's mb=,
// prove's --table-bits) is checked against this one bound, where the
// value enters, so that no setting an option accepts can make the program
// ask for more memory than the machine has.

var (
	memoryOnce sync.Once
	memoryMB   int
)

// MaxTableMB bounds the memory, in megabytes, of a command's solver
// tables together: a quarter of the machine's memory (or of its
// container's limit, when lower), read once. It is at least 64 (the
// smallest table the tools use by default) and, where the machine's
// memory cannot be read, 1024.
func MaxTableMB() int {
	memoryOnce.Do(func() {
		total := physicalMemory()
		if limit := cgroupLimit(); limit > 0 && (total == 0 || limit < total) {
			total = limit
		}
		memoryMB = 1024
		if total > 0 {
			memoryMB = max(64, int(total>>20)/4)
		}
	})
	return memoryMB
}

// cgroupLimit is the memory limit of the process's control group (cgroup
// version 2), 0 when there is none or it cannot be read.
func cgroupLimit() uint64 {
	data, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0 // "max": no limit
	}
	return n
}

// MaxNodes bounds a solver's or prover's budget of nodes (sets --nodes,
// the perfect player's nodes=, prove --nodes): 10^12, days of search on
// any machine; 0, where a budget may be left out, means none.
const MaxNodes = 1_000_000_000_000
