#!/usr/bin/env python3
"""Self-test of .ci/docs.py's checks of reference pages: text that must pass
and text that must fail (dates, stories of changes, a command's figures on two
pages, README's test command against .ci/run's). Run by ctest
(unit_ci_test_docs) and by hand: python3 .ci/test_docs.py."""
import importlib.util
import os
import re
import tempfile
import unittest

spec = importlib.util.spec_from_file_location(
    "docs", os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs.py"))
docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(docs)


def record(text):
    return list(docs.check_record("page.md", text))


class Dates(unittest.TestCase):
    def test_date_in_prose_fails(self):
        self.assertEqual(len(record("clrt-train ran on 2026-12-06 on POCL.\n")), 1)

    def test_month_year_fails(self):
        self.assertEqual(len(record("Measured in Dec 2026.\n")), 1)
        self.assertEqual(len(record("Measured on 5 December 2026.\n")), 1)

    def test_date_in_table_intro_passes(self):
        text = ("Intro: POCL 3.1 on 2 cores of an AMD EPYC, quiet,\n2026-12-06:\n\n"
                "| case | clrt |\n| --- | --- |\n| matmul | 200 GFLOP/s |\n")
        self.assertEqual(record(text), [])

    def test_date_in_intro_before_command_block_passes(self):
        text = ("On an AMD EPYC, 2026-12-06, one run of\n\n```sh\nclrt-bench --op matmul\n```\n\n"
                "| case | clrt |\n| --- | --- |\n| matmul | 200 GFLOP/s |\n")
        self.assertEqual(record(text), [])

    def test_date_before_a_tool_output_passes(self):
        self.assertEqual(record("The current run, 2026-12-06:\n\n```\nconv1 3.0 ms\n```\n"), [])

    def test_date_in_table_header_passes(self):
        self.assertEqual(record("| case | AMD EPYC, 2026-12-06 |\n| --- | --- |\n| a | 1 s |\n"), [])

    def test_date_in_table_body_fails(self):
        self.assertEqual(len(record("| case | date |\n| --- | --- |\n| a | 2026-12-06 |\n")), 1)

    def test_date_after_table_fails(self):
        text = "Intro, 2026-12-06:\n\n| a |\n| --- |\n| 1 s |\n\nThen on 2026-12-07 it moved.\n"
        self.assertEqual(len(record(text)), 1)

    def test_two_dated_tables_fail(self):
        table = "| a |\n| --- |\n| 1 s |\n"
        text = "On 2026-12-06:\n\n" + table + "\nOn 2026-12-07:\n\n" + table
        bad = record(text)
        self.assertEqual(len(bad), 1)
        self.assertIn("2 dated tables", bad[0])

    def test_link_to_a_dated_heading_passes(self):
        self.assertEqual(record("The runs: [history](h.md#2026-12-02-to-2026-12-05-what-missed).\n"), [])

    def test_version_numbers_pass(self):
        self.assertEqual(record("POCL 3.1, OpenBLAS 0.3.21, CLBlast 1.5.3, sizes 1024-2048.\n"), [])


class Stories(unittest.TestCase):
    PHRASES = ("alternated with the commit before, two runs each",
               "the commit before it read 5,020 images/s",
               "that night, with fewer programs",
               "in the morning the machine was quiet",
               "2.0 s (1.55 s before 2026-12-07)",
               "since a step launches 54 kernels, not 64, and",
               "a run builds 5 programs where it built 10",
               "not re-measured since the defaults changed",
               "the kernels have changed since",
               "one run so far",
               "the same afternoon, again",
               "at commit a09b185",
               "it no longer launches a transpose",
               "as the previous commit did",
               "measured that day",
               "as measured yesterday",
               "since 2026 the kernel is tiled",
               "not yet measured on a GPU",
               "it used to launch two kernels",
               "the step used to be slower",
               "after the merge it is faster",
               "earlier runs gave 3 s",
               "the run before gave 3 s",
               "the old figures were lower")

    def test_phrases_fail(self):
        for phrase in self.PHRASES:
            with self.subTest(phrase=phrase):
                self.assertTrue(record(phrase + "\n"), phrase)

    def test_every_phrase_rule_has_a_failing_case(self):
        for rule in docs.RECORD_PHRASES:
            with self.subTest(rule=rule):
                self.assertTrue(any(re.search(rule, p, re.I) for p in self.PHRASES), rule)

    def test_counts_bounds_and_uses_pass(self):
        # what reads like a story but says what is true now
        self.assertEqual(record("After 2048 steps the loss is 0.3; since 2048 x 2048 fits, a 2048-element row "
                                "does too. No function is longer than 100 lines, and none no longer than it "
                                "needs. The buffer used to hold the sums is freed; which buffer is used to "
                                "hold them is up to the caller.\n"), [])

    def test_present_tense_passes(self):
        text = ("A step launches 54 kernels; a run builds 5 programs. Since POCL compiles a kernel at "
                "its first launch, the first step is the slowest. Before a step, the queue is finished. "
                "A candidate replaces the best so far when it is faster.\n")
        self.assertEqual(record(text), [])


class Owners(unittest.TestCase):
    def owners(self, pages):
        return list(docs.check_owners(pages))

    def test_same_command_two_pages_fails(self):
        bad = self.owners({"README.md": "Run `build/tools/clrt-train`: 37 s.\n",
                           "docs/train.md": "`clrt-train` takes 98.8 s here.\n"})
        self.assertEqual(len(bad), 1)
        self.assertIn("`clrt-train`", bad[0])
        self.assertIn("README.md:1", bad[0])
        self.assertIn("docs/train.md:1", bad[0])

    def test_table_rows_and_env_prefixes_count(self):
        bad = self.owners({
            "a.md": "| `env -u OPENBLAS_CORETYPE build/tools/clrt-bench --op matmul` | 1.23x |\n",
            "b.md": "- `CLRT_DEVICE=pocl clrt-bench --op matmul`: 0.9x\n"})
        self.assertEqual(len(bad), 1)

    def test_one_page_passes(self):
        self.assertEqual(self.owners({"README.md": "`clrt-train` trains the CNN ([train.md](train.md)).\n",
                                      "docs/train.md": "`clrt-train`: 36.8 s, 87.18%.\n"}), [])

    def test_other_options_are_another_command(self):
        self.assertEqual(self.owners({"a.md": "`clrt-train --limit 2000`: 7.2 s.\n",
                                      "b.md": "`clrt-train`: 36.8 s.\n"}), [])

    def test_command_without_figures_passes(self):
        self.assertEqual(self.owners({"a.md": "`clrt-bench --quick` runs 2 epochs.\n",
                                      "b.md": "`clrt-bench --quick`: 12 s.\n"}), [])

    def test_figure_goes_to_the_nearest_command_before_it(self):
        self.assertEqual(self.owners({"a.md": "`clrt-info --warm` fills the caches; `clrt-train` then takes 1.4 s.\n",
                                      "b.md": "`clrt-info --warm`: 61 s.\n"}), [])
        self.assertEqual(len(self.owners({"a.md": "`clrt-info --warm` takes 61 s; then `clrt-train`.\n",
                                          "b.md": "`clrt-info --warm`: 61 s.\n"})), 1)

    def test_settings_are_not_figures(self):
        self.assertEqual(self.owners({"a.md": "`clrt-train` prints a line every 5 s, at most 3 s late.\n",
                                      "b.md": "`clrt-train`: 36.8 s.\n"}), [])

    def test_figures_in_separate_paragraphs_not_attached(self):
        self.assertEqual(self.owners({"a.md": "`quickstart` prints the device.\n\nIt takes 2 s.\n",
                                      "b.md": "`quickstart`: 2.0 s cold.\n"}), [])


class LinksCitationsTables(unittest.TestCase):
    FILES = {"README.md", "docs/a.md", "src/base/util.c", "examples/quickstart.c"}
    FOLDERS = {"docs", "src", "src/base", "examples"}

    def links(self, text):
        return list(docs.check_links("docs/b.md", text, self.FILES, self.FOLDERS))

    def citations(self, text):
        return list(docs.check_citations("docs/b.md", text, self.FILES, self.FOLDERS))

    def test_links(self):
        self.assertEqual(self.links("[a](a.md), [top](../README.md), [src](../src/base), [web](https://x.org/y)\n"),
                         [])
        self.assertEqual(len(self.links("[gone](c.md)\n")), 1)
        self.assertEqual(len(self.links("[up](../docs/c.md)\n")), 1)

    def test_link_anchors(self):
        with tempfile.TemporaryDirectory() as top:
            os.makedirs(os.path.join(top, "docs"))
            with open(os.path.join(top, "docs", "a.md"), "w") as f:
                f.write("# Use it from C\n\n## Use it from C\n")
            here = os.getcwd()
            os.chdir(top)
            try:
                self.assertEqual(self.links("[c](a.md#use-it-from-c), [again](a.md#use-it-from-c-1)\n"), [])
                bad = self.links("[c](a.md#use-it-from-python)\n")
            finally:
                os.chdir(here)
        self.assertEqual(len(bad), 1)
        self.assertIn("no such heading", bad[0])

    def test_citations(self):
        self.assertEqual(self.citations("See src/base/util.c, src/base/, examples/quickstart, src/base/*.c, "
                                        "README.md and a.md.\n"), [])
        self.assertEqual(self.citations("See ../src/base/util.c, ../examples and ../README.md.\n"), [])
        for text in ("See src/base/gone.c.\n", "See src/base/*.h.\n", "See DESIGN.md.\n", "See ../shared/x.md.\n",
                     "See ../../shared/tools/gpu-isa.\n", "See ../src/base/gone.c.\n"):
            with self.subTest(text=text):
                self.assertTrue(self.citations(text), text)

    def test_tables(self):
        self.assertEqual(list(docs.check_tables("p.md", "| a | `b|c` |\n|---|---|\n| 1 | 2 |\n")), [])
        self.assertEqual(len(list(docs.check_tables("p.md", "| a | b |\n|---|---|\n| 1 | 2\n"))), 1)
        self.assertEqual(len(list(docs.check_tables("p.md", "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n"))), 1)


class ReadmeLength(unittest.TestCase):
    def test_lengths(self):
        self.assertEqual(list(docs.check_readme_length("line\n" * 200)), [])
        self.assertEqual(len(list(docs.check_readme_length("line\n" * 201))), 1)


class TestCommand(unittest.TestCase):
    RUN = "x\n# --- keep in sync with README.md \"Test\" ---\nmake && ctest\n# ---\ny\n"

    def test_same_line_passes(self):
        self.assertEqual(list(docs.check_test_command("Test:\n\nmake && ctest\n", self.RUN)), [])

    def test_changed_line_fails(self):
        self.assertEqual(len(list(docs.check_test_command("Test:\n\nmake && ctest -j2\n", self.RUN))), 1)

    def test_no_markers_fail(self):
        self.assertEqual(len(list(docs.check_test_command("make && ctest\n", "make && ctest\n"))), 1)


if __name__ == "__main__":
    unittest.main(verbosity=1)
