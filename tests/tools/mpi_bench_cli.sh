#!/bin/sh
# clrt-mpi-bench's command line on 2 ranks (tools/common/tool_args.h): a bad
# value is refused before any device or collective, with exit 2 and one line
# naming the option and the value, said by rank 0 alone. --floats is an
# element count MPI_Allreduce's int count must hold (it was read by
# strtoull without a check, --reps by atoi: "abc" ran one round).
# usage: mpi_bench_cli.sh MPIEXEC MPI_BENCH
set -u
mpiexec=$1 bench=$2
fail=0
check() { # check ARGS WANT
    err=$("$mpiexec" --bind-to none -np 2 "$bench" $1 2>&1 >/dev/null)
    rc=$?
    lines=$(printf '%s\n' "$err" | grep -c '^clrt-mpi-bench: ')
    if [ "$rc" -eq 0 ] || [ "$lines" -ne 1 ] || ! printf '%s\n' "$err" | grep -q -- "$2"; then
        echo "FAIL: clrt-mpi-bench $1: exit $rc, $lines line(s) of clrt-mpi-bench, expected one saying \"$2\":"
        printf '%s\n' "$err"
        fail=1
    fi
}
check "--reps abc" "clrt-mpi-bench: --reps abc: not a whole number"
check "--reps 0" "clrt-mpi-bench: --reps 0: must be 1 to 100000"
check "--floats 0" "clrt-mpi-bench: --floats 0: must be 1 to 2147483647"
check "--floats 4294967296" "clrt-mpi-bench: --floats 4294967296: must be 1 to 2147483647"
check "--bogus" "clrt-mpi-bench: unknown option --bogus"
[ "$fail" -eq 0 ] && echo "mpi_bench_cli: every bad value refused once, by rank 0"
exit $fail
