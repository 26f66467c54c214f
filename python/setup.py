"""Build step of the clrt Python package: runs the project's CMake on the source tree
above this folder, builds the shared library only, and bundles it as clrt/_libs/libclrt.so.

CLRT_USE_SYSTEM_LIBRARY=1 skips that: the package then loads an installed libclrt
(ctypes.util.find_library) or $CLRT_LIBRARY. Metadata: pyproject.toml."""
import os
import pathlib
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools 70.1 and later have the command themselves
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    try:  # older ones (Debian 12's 66) take it from the wheel package
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:  # neither: only a wheel build fails (pip says: invalid command 'bdist_wheel')
        bdist_wheel = None

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parent


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        if os.environ.get("CLRT_USE_SYSTEM_LIBRARY") == "1":
            return
        if not (SOURCE / "CMakeLists.txt").exists() or not (SOURCE / "src").is_dir():
            raise RuntimeError(f"clrt: {SOURCE} is not the clrt source tree; build from a "
                               "checkout (pip install ./python) or set CLRT_USE_SYSTEM_LIBRARY=1")
        build = pathlib.Path(self.build_lib).resolve().parent / "cmake-libclrt"
        subprocess.check_call(["cmake", "-S", str(SOURCE), "-B", str(build),
                               "-DCMAKE_BUILD_TYPE=Release", "-DCLRT_BUILD_TESTS=OFF",
                               "-DCLRT_BUILD_TOOLS=OFF", "-DCLRT_BUILD_EXAMPLES=OFF"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "clrt", "-j",
                               os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")])
        dest = pathlib.Path(self.build_lib) / "clrt" / "_libs"
        dest.mkdir(parents=True, exist_ok=True)
        # one real file under the name the loader looks for (no symlinks in wheels)
        shutil.copyfile(build / "libclrt.so", dest / "libclrt.so")


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for this platform, not py3-none-any."""

    def has_ext_modules(self):
        return os.environ.get("CLRT_USE_SYSTEM_LIBRARY") != "1"


cmdclass = {"build_py": BuildWithLibrary}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """py3-none-<platform>: the library is tied to the platform, the Python code
        (ctypes, no extension module) to no Python version or ABI."""

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

setup(cmdclass=cmdclass, distclass=BinaryDistribution)
