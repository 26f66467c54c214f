"""Running the compilers."""
import os
import subprocess


class Failed(Exception):
    """A compiler failed, or its output lacks what was asked for."""


def tool(cmd, what, env=None, timeout=600):
    """Runs cmd; its stdout and stderr together, or Failed with the end of what it said."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failed("%s ran past %d s: %s" % (what, timeout, " ".join(cmd)))
    if p.returncode:
        said = (p.stderr + p.stdout).strip()
        raise Failed("%s failed (exit %d): %s\n%s" % (what, p.returncode, " ".join(cmd), said[-3000:]))
    return p.stdout + p.stderr


def clang_cmd(clang, triple, cpu, libclc, job, options):
    """clang for OpenCL C on triple with libclc linked in (the OpenCL builtins), job's
    defines and the other build options; the caller adds the output and the file."""
    return ([clang, "-x", "cl", "-cl-std=" + job.std, "-target", triple, cpu, "-Xclang", "-finclude-default-header",
             "-Xclang", "-mlink-builtin-bitcode", "-Xclang", libclc, "-Wno-linker-warnings"] +
            (["-nogpulib"] if triple.startswith("amdgcn") else []) + ["-D" + d for d in job.defines] + options)


def keep(work, name, text):
    """Writes a listing into the work folder (kept with --keep)."""
    with open(os.path.join(work, name), "w") as f:
        f.write(text)
