#!/bin/bash
# The Python package as a user gets it: a wheel built from python/ (which builds
# libclrt with CMake and bundles it), installed into a fresh virtual environment
# (Debian's pip installs only into one, PEP 668; --system-site-packages reuses
# Debian's numpy), then an example run from outside the source tree (16 s on
# 2 cores from a fresh clone, most of it compiling libclrt); then the test suite
# under numpy 2 from PyPI, warnings as errors, in a second venv. The steps are
# docs/python.md's: the build's tools and numpy first (found in Debian's packages:
# nothing downloaded), so that the same commands work with another interpreter.
# Usage: [PYTHON=python3] .ci/python.sh BUILD_DIR  (default /usr/bin/python3; another
# one, pyenv's say, gets wheel and numpy from PyPI)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
venv="$build/pyvenv-ci"
rm -rf "$venv" "$build/wheel"
"${PYTHON:-/usr/bin/python3}" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install -q setuptools wheel numpy
"$venv/bin/pip" wheel -q --no-build-isolation --no-deps -w "$build/wheel" ./python
wheel=$(ls "$build"/wheel/clrt-*.whl)
case "$wheel" in
    *linux_x86_64.whl|*linux_aarch64.whl) ;;
    *) echo "python.sh: $wheel is not tagged for this platform (it carries libclrt)"; exit 1 ;;
esac
"$venv/bin/pip" install -q --no-deps "$wheel"
here=$PWD
(cd /tmp && CLRT_DEVICE=pocl "$here/$venv/bin/python" "$here/examples/python/matmul.py" 300 &&
    "$here/$venv/bin/python" -c "import clrt; assert '/site-packages/clrt/_libs/' in clrt.library_path, clrt.library_path")
echo "python.sh: $(basename "$wheel") built, installed and run"

# The Python test suite as a pip user runs it: numpy 2 from PyPI (what `pip install
# ./python` brings; ctest runs the suite under Debian's numpy 1.24), warnings as errors,
# against the installed wheel, in a venv of its own (no Debian packages: PyTorch, Debian's
# build for numpy 1, is absent there, so the comparisons with it run under ctest only).
venv2="$build/pyvenv-numpy2"
rm -rf "$venv2"
"${PYTHON:-/usr/bin/python3}" -m venv "$venv2"
"$venv2/bin/pip" install -q "numpy>=2" pytest
"$venv2/bin/pip" install -q --no-deps "$wheel"
numpy2=$("$venv2/bin/python" -c "import numpy; print(numpy.__version__)")
(cd /tmp && OCL_ICD_VENDORS="$here/$build/tests/icd/pocl" CLRT_DEVICE= CLRT_TUNED=0 \
    CLRT_TEST_REQUIRE_DEVICE=1 CLRT_TEST_REQUIRE_TORCH=0 PYTHONDONTWRITEBYTECODE=1 \
    "$here/$venv2/bin/python" -W error -m pytest -q -p no:cacheprovider -W error "$here/python/tests")
echo "python.sh: the test suite passed under numpy $numpy2 with warnings as errors"
