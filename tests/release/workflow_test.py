#!/usr/bin/python3
"""The publishing workflow (.github/workflows/release.yml) holds no logic of
its own: it runs on a version tag, every command it runs is
tools/release.sh, and what it publishes is what the script made (dist/, and
the site the script unpacked). So a release from CI is the release anyone
makes with the script.

  workflow_test.py SOURCE_DIR
"""
import os
import sys
import unittest

import yaml

SOURCE = None
# The actions it may use: checking out, attaching files, publishing Pages.
ACTIONS = ("actions/checkout@", "softprops/action-gh-release@",
           "actions/upload-pages-artifact@", "actions/deploy-pages@")


def load():
    with open(os.path.join(SOURCE, ".github", "workflows", "release.yml")) as f:
        return yaml.safe_load(f)


class ReleaseWorkflow(unittest.TestCase):
    def setUp(self):
        self.workflow = load()
        (self.job,) = self.workflow["jobs"].values()
        self.steps = self.job["steps"]

    def test_it_runs_on_version_tags_only(self):
        # PyYAML reads the key `on` as True (YAML 1.1).
        trigger = self.workflow.get("on", self.workflow.get(True))
        self.assertEqual(list(trigger), ["push"])
        self.assertEqual(list(trigger["push"]), ["tags"])
        self.assertEqual(trigger["push"]["tags"], ["v*"])

    def test_every_command_is_the_release_script(self):
        commands = [step["run"] for step in self.steps if "run" in step]
        self.assertTrue(commands)
        for command in commands:
            lines = [line for line in command.strip().split("\n") if line.strip()]
            self.assertEqual(len(lines), 1, command)
            self.assertTrue(lines[0].startswith("tools/release.sh "), command)
            for operator in ("&&", "||", ";", "|", "$(", "`", ">"):
                self.assertNotIn(operator, lines[0])
        self.assertIn("tools/release.sh dist", commands)
        self.assertNotIn("run", self.job.get("defaults", {}))

    def test_every_other_step_is_a_known_action_with_plain_inputs(self):
        for step in self.steps:
            if "run" in step:
                continue
            self.assertTrue(step["uses"].startswith(ACTIONS), step["uses"])
            for value in step.get("with", {}).values():
                self.assertNotIn("${{", str(value), step)

    def test_it_publishes_what_the_script_made(self):
        uses = {step["uses"].split("@")[0]: step for step in self.steps if "uses" in step}
        self.assertEqual(uses["softprops/action-gh-release"]["with"]["files"], "dist/*")
        self.assertEqual(uses["actions/upload-pages-artifact"]["with"]["path"], "public")
        self.assertIn("tools/release.sh pages dist public",
                      [step.get("run") for step in self.steps])
        # The script is where the work is: every subcommand used exists.
        with open(os.path.join(SOURCE, "tools", "release.sh")) as f:
            script = f.read()
        for step in self.steps:
            if "run" in step:
                sub = step["run"].split()[1]
                if sub != "dist":  # the whole release, into the folder dist
                    self.assertIn(f"\n{sub}) ", script)


if __name__ == "__main__":
    SOURCE = sys.argv.pop(1)
    unittest.main()
