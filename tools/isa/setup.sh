#!/bin/sh
# The offline GPU compilers clrt-isa runs, on Debian 12 (bookworm), as root or
# through sudo. Each part is skipped when it is already there; a second run
# changes nothing.
#
#   NVIDIA  clang-15 and libclc-15 (OpenCL C -> PTX, with libclc's
#           nvptx64--nvidiacl.bc), and NVIDIA's ptxas and nvdisasm from PyPI's
#           nvidia-cuda-nvcc and nvidia-cuda-nvdisasm wheels, in a venv of their own
#   AMD     clang-19 (OpenCL C -> AMDGPU assembly; clang-15's gfx11 register
#           model spills where 19's does not) with libclc-15's amdgcn--amdhsa.bc
#   Intel   ocloc, Intel's offline compiler (Debian's intel-opencl-icd and the
#           libraries it loads), unpacked from the .deb files with dpkg-deb into a
#           folder of its own and never installed: installed, intel-opencl-icd
#           registers an Intel OpenCL platform on the machine. A link
#           libiga64.so -> libiga64.so.1 lets `ocloc disasm` load IGA.
#
# libclc-19 is never installed: it replaces libclc-15, and apt then removes
# mesa-opencl-icd (rusticl, one of the drivers clrt's tests run on).
#
# Usage: tools/isa/setup.sh [nvidia] [amd] [intel]     (no argument: all three)
# Environment: CLRT_ISA_HOME, where the venv and Intel's folder go (default
# ~/.local/share/clrt-isa; clrt-isa looks there too).
set -eu
home=${CLRT_ISA_HOME:-$HOME/.local/share/clrt-isa}
cuda_version=13.5.37
intel_debs="intel-opencl-icd libigc1 libigdfcl1 libigdgmm12 libopencl-clang14 libllvmspirvlib14 libllvm14
libclang-cpp14"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
parts=${*:-nvidia amd intel}

# apt_need PACKAGE...: installs those not installed (apt-get update first, once)
updated=0
apt_need() {
    missing=
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    [ -n "$missing" ] || return 0
    if [ $updated = 0 ]; then
        $sudo apt-get update -qq -o DPkg::Lock::Timeout=600
        updated=1
    fi
    echo "clrt-isa setup: apt-get install$missing"
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends $missing >/dev/null
}

nvidia() {
    apt_need clang-15 libclc-15 python3-venv
    venv=$home/venv
    if [ -x "$venv/bin/python3" ] && "$venv/bin/python3" -m pip show nvidia-cuda-nvcc 2>/dev/null |
        grep -qx "Version: $cuda_version"; then
        echo "clrt-isa setup: NVIDIA's ptxas and nvdisasm $cuda_version already in $venv"
        return 0
    fi
    mkdir -p "$home"
    python3 -m venv "$venv"
    "$venv/bin/python3" -m pip install -q --disable-pip-version-check "nvidia-cuda-nvcc==$cuda_version" \
        "nvidia-cuda-nvdisasm==$cuda_version"
    echo "clrt-isa setup: NVIDIA's ptxas and nvdisasm $cuda_version in $venv"
}

amd() {
    apt_need clang-19 libclc-15
}

intel() {
    dir=$home/intel
    if [ -x "$dir/usr/bin/ocloc" ] && [ -e "$dir/usr/lib/x86_64-linux-gnu/libiga64.so" ]; then
        echo "clrt-isa setup: Intel's ocloc already in $dir"
        return 0
    fi
    if [ $updated = 0 ]; then
        $sudo apt-get update -qq -o DPkg::Lock::Timeout=600
        updated=1
    fi
    debs=$(mktemp -d)
    # apt-get download writes into the current folder, as the user _apt when it can
    chmod 777 "$debs"
    # shellcheck disable=SC2086
    (cd "$debs" && apt-get download -qq $intel_debs)
    rm -rf "$dir.tmp"
    mkdir -p "$dir.tmp"
    for f in "$debs"/*.deb; do
        dpkg-deb -x "$f" "$dir.tmp"
    done
    # clrt-isa names the compiler's version from this
    dpkg-deb -f "$debs"/intel-opencl-icd_*.deb Version >"$dir.tmp/VERSION"
    rm -rf "$debs"
    ln -sf libiga64.so.1 "$dir.tmp/usr/lib/x86_64-linux-gnu/libiga64.so"
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
    echo "clrt-isa setup: Intel's ocloc unpacked in $dir (not installed: no Intel OpenCL platform registered)"
}

# a step that fails (apt-get, pip, a download) stops the script (set -e) after its own
# message; this names the part it stopped in, so that CI's log says what failed
part=
said_failed() {
    rc=$?
    [ $rc = 0 ] || echo "clrt-isa setup: the $part part failed (exit $rc): the command above says why" >&2
}
trap said_failed EXIT
for part in $parts; do
    case $part in
    nvidia | amd | intel) $part ;;
    *)
        echo "clrt-isa setup: unknown part '$part' (nvidia, amd, intel)" >&2
        trap - EXIT
        exit 2
        ;;
    esac
done
