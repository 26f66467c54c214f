#!/usr/bin/env python3
"""Self-test of .ci/layers.py: made-up trees that must pass and trees that
must fail, one rule each (the relative-include hole above all: "../../src/..."
from tools/, examples/ or support/). Run by ctest (unit_ci_test_layers) and
by hand: python3 .ci/test_layers.py."""
import os
import subprocess
import sys
import tempfile
import unittest

LAYERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.py")
README = """# src/

## Which folder may include which

| folder | may include |
| --- | --- |
| `base` | `hostref` |
| `runtime` | `base` |
"""
BASE = {
    "src/README.md": README,
    "src/base/util.h": "int util(void);\n",
    "src/runtime/handles.h": '#include "base/util.h"\n',
    "src/runtime/queue.c": '#include "runtime/handles.h"\n#include <clrt/clrt.h>\n',
    "cl/add.cl": "kernel void add(void) {}\n",
    "support/hostref/hostref.h": "void hostref(void);\n",
    "support/hostref/hostref.c": '#include "hostref.h"\n#include "hostref/hostref.h"\n',
    "tools/common/output.h": "void output(void);\n",
    "tools/bench/report.h": "void report(void);\n",
    "tools/bench/sub/deep.c": '#include "../report.h"\n#include "../../common/output.h"\n',
    "tools/bench/main.c": '#include "report.h"\n#include "common/output.h"\n#include "hostref/hostref.h"\n'
                          '#include <clrt/clrt.h>\n',
    "tools/info/info.h": "void info(void);\n",
    "examples/example_util.h": "void eu(void);\n",
    "examples/quickstart.c": '#include "example_util.h"\n#include <clrt/clrt.h>\n',
}


def run(extra):
    """layers.py's exit status and output on BASE with extra files (path: text)."""
    with tempfile.TemporaryDirectory() as top:
        for path, text in {**BASE, **extra}.items():
            full = os.path.join(top, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        out = subprocess.run([sys.executable, LAYERS, top], capture_output=True, text=True)
        return out.returncode, out.stdout


class Layers(unittest.TestCase):
    def passes(self, extra=None):
        rc, out = run(extra or {})
        self.assertEqual(rc, 0, out)

    def fails(self, extra, words):
        rc, out = run(extra)
        self.assertEqual(rc, 1, out)
        self.assertIn(words, out)

    def test_clean_tree(self):
        self.passes()

    def test_tool_into_src_by_dots(self):
        self.fails({"tools/bench/x.c": '#include "../../src/runtime/handles.h"\n'}, "tools/bench/x.c")

    def test_tool_into_src_through_common(self):
        self.fails({"tools/bench/x.c": '#include "common/../../src/base/util.h"\n'}, "tools/bench/x.c")

    def test_tool_into_src_through_support(self):
        self.fails({"tools/bench/x.c": '#include "../src/base/util.h"\n'}, "tools/bench/x.c")

    def test_tool_into_another_tool(self):
        self.fails({"tools/bench/x.c": '#include "../info/info.h"\n'}, "tools/bench/x.c")

    def test_example_into_src_by_dots(self):
        self.fails({"examples/x.c": '#include "../src/base/util.h"\n'}, "examples/x.c")

    def test_example_into_tools(self):
        self.fails({"examples/x.c": '#include "../tools/common/output.h"\n'}, "examples/x.c")

    def test_support_into_src_by_dots(self):
        self.fails({"support/hostref/x.c": '#include "../../src/base/util.h"\n'}, "support/hostref/x.c")

    def test_support_into_src_through_its_name(self):
        self.fails({"support/hostref/x.c": '#include "hostref/../../src/base/util.h"\n'}, "support/hostref/x.c")

    def test_src_climbing_out(self):
        self.fails({"src/runtime/x.c": '#include "runtime/../../tools/common/output.h"\n'}, "never \"..\"")

    def test_src_wrong_layer(self):
        self.fails({"src/base/x.c": '#include "runtime/handles.h"\n'}, "base/ may include only")

    def test_src_cycle(self):
        self.fails({"src/base/a.h": '#include "base/b.h"\n', "src/base/b.h": '#include "base/a.h"\n'},
                   "include cycle")

    def test_src_repeated_name(self):
        self.fails({"src/base/handles.h": "int h;\n"}, "one file name in two places")

    def test_src_known_repeats_pass(self):
        self.passes({"src/base/device.c": "int a;\n", "src/runtime/device.c": "int b;\n"})

    def test_tool_header_named_as_src_header(self):
        self.fails({"tools/common/handles.h": "int h;\n"}, "named as a header of src/")

    def test_src_top_file(self):
        self.fails({"src/loose.c": "int x;\n"}, "src/'s top")

    def test_src_folder_without_rule(self):
        self.fails({"src/extra/x.c": "int x;\n"}, "folder 'extra' has no rule")

    def test_src_include_without_folder(self):
        self.fails({"src/runtime/x.c": '#include "handles.h"\n'}, "internal includes name their folder")

    def test_embedded_source_outside_kernels(self):
        self.fails({"src/runtime/x.c": "extern const char clrt__cl_add[];\n"}, "only kernels/ may")

    def test_rules_that_include_each_other(self):
        self.fails({"src/README.md": README + "| `hostref` | `base` |\n"}, "may include each other")

    def test_no_rules(self):
        self.fails({"src/README.md": "# src/\n"}, "no folder rules found")

    def test_support_into_tools(self):
        self.fails({"support/hostref/x.c": '#include "../../tools/common/output.h"\n'}, "support/hostref/x.c")


if __name__ == "__main__":
    unittest.main(verbosity=1)
