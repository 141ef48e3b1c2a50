#!/usr/bin/env python3
"""Renders prompt templates with Jinja2, as Rasa does, into the golden files beside this script.

The TypeScript test next to this folder (jinjaGolden.test.ts) renders the same templates with
Switchboard and compares. CI never runs this script; run it again only when a template or the
variables change, from the repository root, with Debian's python3-jinja2:

    apt-get install -y python3-jinja2
    python3 test/unit/prompts/golden/make_golden.py

The command-generator templates are read from ../shared/rasa-projects (public Rasa projects,
never copied into this repository). scenario.json holds the variables Rasa's
CompactLLMCommandGenerator gives a template at each turn of the conversation the test plays;
constructs.jinja2 with constructs.json covers values and filters those templates do not.
"""

import json
import pathlib

from jinja2 import Environment, select_autoescape

HERE = pathlib.Path(__file__).resolve().parent
PROJECTS = HERE.parents[3] / ".." / "shared" / "rasa-projects"
TEMPLATES = json.loads((HERE / "templates.json").read_text(encoding="utf-8"))


def environment():
    # As Rasa's LLMBasedCommandGenerator.compile_template builds it.
    env = Environment(
        autoescape=select_autoescape(
            disabled_extensions=["jinja2"], default_for_string=False, default=True
        )
    )
    env.filters["to_json_escaped_string"] = lambda s: json.dumps(s, ensure_ascii=False)
    return env


def main():
    env = environment()
    scenario = json.loads((HERE / "scenario.json").read_text(encoding="utf-8"))
    for name, relative in TEMPLATES.items():
        template = env.from_string((PROJECTS / relative).read_text(encoding="utf-8"))
        for turn, variables in scenario.items():
            out = HERE / f"{name}.{turn}.txt"
            out.write_text(template.render(**variables), encoding="utf-8")
    constructs = env.from_string((HERE / "constructs.jinja2").read_text(encoding="utf-8"))
    variables = json.loads((HERE / "constructs.json").read_text(encoding="utf-8"))
    (HERE / "constructs.txt").write_text(constructs.render(**variables), encoding="utf-8")


if __name__ == "__main__":
    main()
