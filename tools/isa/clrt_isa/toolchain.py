"""Where the offline compilers are, and what to install when one is missing.

Looked for in CLRT_ISA_HOME (default ~/.local/share/clrt-isa), where tools/isa/setup.sh puts
them, then on PATH. Overrides: CLRT_ISA_CUDA_BIN (a folder holding ptxas and nvdisasm),
CLRT_ISA_LIBCLC (a folder holding libclc's .bc files), CLRT_ISA_INTEL (a folder holding Intel's
unpacked usr/bin/ocloc)."""
import glob
import os
import re
import shutil
import subprocess

NV_CLANG = "clang-15"  # its PTX matched NVIDIA's driver's register counts (docs/gpu-isa.md)
AMD_CLANGS = ("clang-19", "clang-18", "clang-17", "clang-16")
LIBCLC_DIRS = ("/usr/lib/clc", "/usr/share/clc", "/usr/lib/llvm-15/lib/clc", "/usr/local/lib/clc")
HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


class Missing(Exception):
    """A compiler or library is not installed; the message says what installs it."""


def home():
    return os.environ.get("CLRT_ISA_HOME") or os.path.expanduser("~/.local/share/clrt-isa")


def setup_command(part=""):
    """The command that installs part (nvidia, amd, intel) or all: setup.sh beside this
    package, in the source tree (tools/isa/) or installed (share/clrt/isa/)."""
    path = os.path.join(HERE, "setup.sh")
    return "sh %s%s" % (path if os.path.isfile(path) else "tools/isa/setup.sh", " " + part if part else "")


def find_clang(vendor, wanted=None):
    names = [wanted] if wanted else [NV_CLANG] if vendor == "nvidia" else list(AMD_CLANGS)
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    if wanted:
        raise Missing("%s not found" % wanted)
    raise Missing("%s not found: install it with `%s` (Debian: apt-get install %s)"
                  % (" or ".join(names), setup_command(vendor), names[0]))


def find_libclc(name):
    dirs = [os.environ["CLRT_ISA_LIBCLC"]] if os.environ.get("CLRT_ISA_LIBCLC") else list(LIBCLC_DIRS)
    for d in dirs:
        if os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    raise Missing("libclc's %s not found in %s: install it with `%s` (Debian: apt-get install libclc-15; never "
                  "libclc-19, which replaces it and makes apt remove mesa-opencl-icd)"
                  % (name, ", ".join(dirs), setup_command("nvidia")))


def find_cuda_bin():
    """The folder holding ptxas and nvdisasm of one CUDA release."""
    dirs = [os.environ.get("CLRT_ISA_CUDA_BIN", "")]
    dirs += sorted(glob.glob(os.path.join(home(), "venv/lib/python3*/site-packages/nvidia/cu*/bin")), reverse=True)
    ptxas = shutil.which("ptxas")
    dirs.append(os.path.dirname(ptxas) if ptxas else "")
    for d in dirs:
        if d and all(os.access(os.path.join(d, t), os.X_OK) for t in ("ptxas", "nvdisasm")):
            return d
    raise Missing("NVIDIA's ptxas and nvdisasm not found: install them with `%s` (PyPI's nvidia-cuda-nvcc and "
                  "nvidia-cuda-nvdisasm wheels, in a venv under %s); or set CLRT_ISA_CUDA_BIN to a folder holding "
                  "both" % (setup_command("nvidia"), home()))


def find_ocloc():
    """ocloc and the environment it runs in (its libraries beside it, never installed)."""
    roots = [os.environ.get("CLRT_ISA_INTEL", ""), os.path.join(home(), "intel")]
    for r in roots:
        exe = os.path.join(r, "usr/bin/ocloc")
        if r and os.access(exe, os.X_OK):
            libs = [os.path.join(r, d) for d in ("usr/lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu/intel-opencl",
                                                 "usr/lib/llvm-14/lib")]
            old = os.environ.get("LD_LIBRARY_PATH")
            return exe, dict(os.environ, LD_LIBRARY_PATH=":".join(libs + ([old] if old else [])))
    if shutil.which("ocloc"):
        return shutil.which("ocloc"), dict(os.environ)
    raise Missing("Intel's ocloc not found: unpack it with `%s` (Debian's intel-opencl-icd and the libraries it "
                  "loads, in %s, not installed); or set CLRT_ISA_INTEL to a folder holding usr/bin/ocloc"
                  % (setup_command("intel"), os.path.join(home(), "intel")))


def version(tool, env=None):
    """A compiler's version as its --version says it, or '?'."""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, env=env, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    m = re.search(r"(clang version [\d.]+|release [\d.]+, V[\d.]+)", out)
    return m.group(1) if m else "?"


def intel_version(ocloc):
    """The intel-opencl-icd version setup.sh unpacked (its VERSION file beside usr/), or '?'."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(ocloc))), "VERSION")
    try:
        with open(path) as f:
            return f.read().strip() or "?"
    except OSError:
        return "?"
