#!/bin/bash
# libFuzzer (clang, with ASan+UBSan): each target (the selector, the API,
# the tuned-file parser, clrt-train's IDX and state-file readers, clrt-bench's
# command line; and, under atheris, the Python package's shape/index normaliser) for a
# bounded time ($CLRT_FUZZ_SECONDS each, default 30), starting from the kept
# corpus in tests/fuzz/corpus. New inputs go to the build folder, not the repository;
# a crash, a sanitizer report or a contract violation fails the run and
# leaves the input in <build>/artifacts to add to the corpus once fixed.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ci_root"
ci_clang_step fuzz -DCLRT_FUZZ=ON -DCLRT_SANITIZE=address,undefined
targets="selector api tuned idx state bench_opts"
cmake --build "$b" -j2 --target $(printf 'fuzz_%s ' $targets) >/dev/null
seconds=${CLRT_FUZZ_SECONDS:-30}
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$ci_root/tests/harness/lsan.supp:print_suppressions=0
# the API target makes real calls: POCL alone on the loader
export OCL_ICD_VENDORS=$ci_root/$b/tests/icd/pocl CLRT_DEVICE=
mkdir -p "$b/artifacts"
# executions LOG PATTERN: the count libFuzzer reports (the second word of the line
# PATTERN matches); a log without it is a fuzzer that did not run: fail, never "0"
executions() {
    local n
    n=$(grep -m1 -E "$2" "$1" | awk '{print $2}')
    [[ $n =~ ^[0-9]+$ ]] || { tail -30 "$1" >&2; echo "fuzz.sh: $1 reports no executions (/$2/)" >&2; exit 1; }
    echo "$n"
}
for t in $targets; do
    rm -rf "$b/corpus-$t" && mkdir -p "$b/corpus-$t"
    "$b/tests/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$b/artifacts/$t-" \
        "$b/corpus-$t" "tests/fuzz/corpus/$t" 2>"$b/fuzz-$t.log" || { tail -60 "$b/fuzz-$t.log"; exit 1; }
    n=$(executions "$b/fuzz-$t.log" '^stat::number_of_executed_units') || exit 1
    echo "fuzz_$t: $n executions in ${seconds} s, $(ls "$b/corpus-$t" | wc -l) new inputs"
done
# The Python package's shape/index normaliser under atheris (libFuzzer for Python, from
# PyPI, in a venv of its own), against numpy's indexing (tests/fuzz/fuzz_py_index.py).
# The normaliser is pure Python: it runs on the plain build's libclrt (the package loads
# one on import), which the README test command made before this step.
venv=$b/pyvenv-atheris
/usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install -q atheris numpy
rm -rf "$b/corpus-py_index" && mkdir -p "$b/corpus-py_index"
CLRT_LIBRARY=$ci_root/build/libclrt.so PYTHONPATH=$ci_root/python \
    "$venv/bin/python" tests/fuzz/fuzz_py_index.py --atheris -max_total_time="$seconds" \
    -artifact_prefix="$b/artifacts/py_index-" "$b/corpus-py_index" tests/fuzz/corpus/py_index \
    2>"$b/fuzz-py_index.log" || { tail -60 "$b/fuzz-py_index.log"; exit 1; }
n=$(executions "$b/fuzz-py_index.log" '^Done [0-9]+ runs') || exit 1
echo "fuzz_py_index: $n executions in ${seconds} s, $(ls "$b/corpus-py_index" | wc -l) new inputs"
ci_timer_report "libFuzzer (selector, API, tuned file, IDX, state file, clrt-bench options) and atheris (Python index normaliser)"
