#!/bin/sh
# clrt-train-mpi on 2 ranks where rank 1's device does not exist
# ($CLRT_DEVICE differs per rank: an MPMD launch). Both ranks must stop with
# a message that names rank 1 and the reason, the job must fail, and nothing
# may hang (ctest's TIMEOUT is the backstop).
# usage: train_mpi_fault.sh MPIEXEC TRAIN_MPI TRAIN_ARGS...
set -u
mpiexec=$1 train=$2
shift 2
out=$("$mpiexec" --bind-to none -np 1 "$train" "$@" : -np 1 env CLRT_DEVICE=no-such-device "$train" "$@" 2>&1)
rc=$?
echo "$out"
fail=0
[ "$rc" -ne 0 ] || { echo "FAIL: the job exited 0"; fail=1; }
for want in "rank 0 of 2: opening the device: CLRT_MPI_EPEER: .*rank 1 failed (CLRT_ENODEVICE).*no-such-device" \
            "rank 1 of 2: opening the device: CLRT_ENODEVICE: .*no-such-device"; do
    echo "$out" | grep -q -- "$want" || { echo "FAIL: no line matching: $want"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "train_mpi_fault: both ranks stopped with the reason, exit status $rc"
exit $fail
