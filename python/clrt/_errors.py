"""clrt.Error: every failure of the binding, with the library's status name and message."""


class Error(RuntimeError):
    """A clrt failure.

    Attributes:
        status: the library's status code (negative int, e.g. -2).
        name: its name, e.g. "CLRT_ESHAPE".
        message: the detail: clrt_error_message() for a failure inside the
            library, or the binding's own sentence for one it refused before
            calling it (wrong dtype, unsupported broadcast, use after close).
    """

    def __init__(self, status, name, message):
        self.status = status
        self.name = name
        self.message = message
        super().__init__(f"{name}: {message}")


Error.__module__ = "clrt"  # tracebacks say clrt.Error, the name users catch

# The library's codes (include/clrt/clrt.h, CLRT_STATUS_MAP): the binding's own
# refusals use the code the library would have used for the same mistake.
EINVAL = -1
ESHAPE = -2
ENODEVICE = -3
ENOMEM = -4
EBUILD = -5
EUNSUPPORTED = -6
EDEVICE = -7
EOPENCL = -8

_NAMES = {EINVAL: "CLRT_EINVAL", ESHAPE: "CLRT_ESHAPE", ENODEVICE: "CLRT_ENODEVICE",
          ENOMEM: "CLRT_ENOMEM", EBUILD: "CLRT_EBUILD", EUNSUPPORTED: "CLRT_EUNSUPPORTED",
          EDEVICE: "CLRT_EDEVICE", EOPENCL: "CLRT_EOPENCL"}


def refuse(status, message):
    """An Error for a mistake the binding catches itself, before any library call."""
    return Error(status, _NAMES[status], message)


# PyTorch raises TypeError, ValueError or IndexError for some mistakes where the binding
# says clrt.Error: these are both, so `except TypeError` (PyTorch's code) and
# `except clrt.Error` (the binding's) each catch them.
class TypeError_(Error, TypeError):
    """A refusal that PyTorch reports as TypeError (a wrong type of argument, a dtype)."""


class ValueError_(Error, ValueError):
    """A refusal that PyTorch reports as ValueError (a value out of its range)."""


class IndexError_(Error, IndexError):
    """A refusal that PyTorch reports as IndexError (an index or dimension out of range)."""


for _c, _n in ((TypeError_, "TypeError"), (ValueError_, "ValueError"), (IndexError_, "IndexError")):
    _c.__module__, _c.__name__, _c.__qualname__ = "clrt", _n, _n


def type_error(message, status=EINVAL):
    return TypeError_(status, _NAMES[status], message)


def value_error(message, status=EINVAL):
    return ValueError_(status, _NAMES[status], message)


def index_error(message, status=EINVAL):
    return IndexError_(status, _NAMES[status], message)


def shape_error(message):
    """A shape mismatch: RuntimeError (clrt.Error) CLRT_ESHAPE, as PyTorch's RuntimeError."""
    return Error(ESHAPE, _NAMES[ESHAPE], message)


def runtime_error(message, status=EINVAL):
    return Error(status, _NAMES[status], message)
