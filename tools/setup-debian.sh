#!/bin/sh
# Installs what clrt needs to build, test and benchmark on Debian 12 (or
# Ubuntu): compiler, CMake, the OpenCL loader and headers, three OpenCL
# implementations that run on a plain CPU (POCL, Mesa rusticl, Oclgrind),
# CMocka, the benchmark references (OpenBLAS, CLBlast, gnuplot), Doxygen
# for the API reference (the docs target), zlib (clrt-train reads .gz IDX
# files), Fashion-MNIST (the real data clrt-train and its CI test use), Open MPI
# for the optional clrt_mpi library and its tests (docs/mpi.md), and for the
# Python package Debian's python3 with venv, numpy, pytest, setuptools and
# wheel, PyOpenCL (the Python benchmark's reference) and PyTorch 1.13 (python3-torch,
# about 47 MB: the reference of the tensor and autograd tests, and of the article benchmark).
# Run as root or through sudo. Safe to run again.
set -eu
if [ "$(id -u)" -ne 0 ]; then
    exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config git \
    ocl-icd-opencl-dev opencl-headers ocl-icd-libopencl1 clinfo \
    pocl-opencl-icd mesa-opencl-icd oclgrind \
    libcmocka-dev \
    libopenblas-dev libclblast-dev gnuplot-nox \
    doxygen \
    zlib1g-dev dataset-fashion-mnist \
    openmpi-bin libopenmpi-dev \
    python3 python3-venv python3-pip python3-setuptools python3-wheel \
    python3-numpy python3-pytest python3-pyopencl python3-torch \
    >/dev/null
echo "setup-debian: done"
