#!/bin/bash
# Install clrt to a temporary prefix, check what was installed, then build and
# run an outside project (tests/consumer) against that prefix: through
# find_package(clrt) and through pkg-config, with the shared and the static
# library, plus a plain compiler line using pkg-config.
#
#   .ci/consumer.sh [build-dir]    install from an existing build (built first
#                                  if out of date); default: a fresh build in
#                                  the temporary folder
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/clrt-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CLRT_DEVICE=   # the default device, as a user would get

build=${1:-}
if [ -z "$build" ]; then
    build=$work/build
    cmake -S . -B "$build" -DCLRT_WERROR=ON -DCLRT_BUILD_TESTS=OFF -DCLRT_BUILD_EXAMPLES=OFF
fi
cmake --build "$build" -j2
prefix=$work/prefix
echo "== install to $prefix"
cmake --install "$build" --prefix "$prefix"

echo "== what was installed"
lib=$(find "$prefix" -name 'libclrt.so' | head -n1)
[ -n "$lib" ] || { echo "no libclrt.so under $prefix"; exit 1; }
libdir=$(dirname "$lib")
for f in "$prefix/include/clrt/clrt.h" "$prefix/include/clrt/clrt_cl.h" "$prefix/include/clrt/clrt_kernel.h" \
         "$prefix/include/clrt/clrt_tune.h" \
         "$prefix/include/clrt/clrt_export.h" "$libdir/libclrt.a" "$libdir/cmake/clrt/clrtConfig.cmake" \
         "$libdir/cmake/clrt/clrtConfigVersion.cmake" "$libdir/cmake/clrt/clrtTargets.cmake" \
         "$libdir/pkgconfig/clrt.pc" "$libdir/pkgconfig/clrt-static.pc" "$libdir/libclrt-static.a"; do
    [ -e "$f" ] || { echo "missing: $f"; exit 1; }
done
for tool in clrt-info clrt-bench clrt-train; do   # installed when built
    if [ -f "$build/tools/$tool" ] && [ ! -x "$prefix/bin/$tool" ]; then
        echo "missing: $prefix/bin/$tool"; exit 1
    fi
done
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
echo "SONAME $soname"
[[ "$soname" =~ ^libclrt\.so\.[0-9]+\.[0-9]+$ ]] || { echo "unexpected SONAME '$soname'"; exit 1; }
[ -e "$libdir/$soname" ] || { echo "missing: $libdir/$soname"; exit 1; }
# Only the public API leaves the shared library: clrt_<object>_<verb> and the
# few clrt_<word> functions, never clrt__internal or the clrt_debug_ test seams.
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
      grep -Ev '^clrt_[a-z]' | grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' || true)
bad="$bad$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -E '^(clrt__|clrt_debug_)' || true)"
[ -z "$bad" ] || { echo "symbols that should be hidden: $bad"; exit 1; }
echo "exported: $(nm -D --defined-only "$lib" | grep -c ' T clrt_') functions"
if [ -x "$prefix/bin/clrt-info" ]; then
    "$prefix/bin/clrt-info" >/dev/null   # runs from the prefix without LD_LIBRARY_PATH
fi
if [ -x "$prefix/bin/clrt-train" ]; then
    "$prefix/bin/clrt-train" --version >/dev/null
fi

run_consumer() { # via static
    local via=$1 static=$2 dir="$work/consumer-$1-$2"
    echo "== consumer: $via, static=$static"
    cmake -S "$root/tests/consumer" -B "$dir" -DCLRT_CONSUMER_VIA="$via" -DCLRT_CONSUMER_STATIC="$static" \
          -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$dir"
    if [ "$static" = ON ] && ldd "$dir/consumer" | grep -q libclrt; then
        echo "the static consumer links libclrt.so"; exit 1
    fi
    "$dir/consumer"
}
run_consumer find_package OFF
run_consumer find_package ON
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
run_consumer pkg-config OFF
run_consumer pkg-config ON

echo "== consumer: cc with pkg-config, shared and static"
echo "pkg-config --cflags --libs clrt: $(pkg-config --cflags --libs clrt)"
echo "pkg-config --cflags --libs clrt-static: $(pkg-config --cflags --libs clrt-static)"
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror)
# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
cc "${flags[@]}" -o "$work/consumer-cc" tests/consumer/main.c $(pkg-config --cflags --libs clrt OpenCL) -lm
"$work/consumer-cc"   # docs/using.md's recipe: clrt.pc's rpath finds libclrt.so, no LD_LIBRARY_PATH
# shellcheck disable=SC2046
cc "${flags[@]}" -DEXPECT_STATIC -o "$work/consumer-cc-static" tests/consumer/main.c \
    $(pkg-config --cflags --libs clrt-static) -lm
"$work/consumer-cc-static"
# libclrt never links MPI; clrt_mpi, when installed, is found as a component
# and runs as an outside MPI program would (2 ranks; root needs Open MPI's consent).
if ldd "$lib" | grep -qi mpi; then
    echo "libclrt.so links MPI: $(ldd "$lib" | grep -i mpi)"; exit 1
fi
if [ -e "$libdir/libclrt_mpi.so" ]; then
    echo "== consumer: find_package(clrt COMPONENTS mpi), mpirun -np 2"
    [ -e "$prefix/include/clrt/clrt_mpi.h" ] || { echo "missing: $prefix/include/clrt/clrt_mpi.h"; exit 1; }
    bad=$(nm -D --defined-only "$libdir/libclrt_mpi.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
          grep -Ev '^clrt_mpi_[a-z]' | grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' || true)
    [ -z "$bad" ] || { echo "libclrt_mpi.so: symbols that should be hidden: $bad"; exit 1; }
    cmake -S "$root/tests/consumer_mpi" -B "$work/consumer-mpi" -DCMAKE_PREFIX_PATH="$prefix" \
          -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$work/consumer-mpi"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none \
        POCL_MAX_PTHREAD_COUNT=1 mpiexec --oversubscribe --bind-to none -np 2 \
        env LD_LIBRARY_PATH="$libdir" "$work/consumer-mpi/consumer_mpi"
fi
echo "== consumer: all passed"
