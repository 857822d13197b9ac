#!/usr/bin/env python3
"""The PyPI requirements of Home Assistant integrations and of everything they depend on.

Run with a venv's python where `homeassistant` is installed: prints, one per line, the
`requirements` of each named integration's manifest.json and of its `dependencies`, followed
transitively. Home Assistant installs these itself at start unless `--skip-pip`; tools/ha-check.sh
installs them once in the venv and starts it with `--skip-pip`, so a run needs no network.
"""
import json
import os
import sys

import homeassistant

components = os.path.join(os.path.dirname(homeassistant.__file__), "components")
todo, seen, requirements = list(sys.argv[1:]), set(), []
while todo:
    name = todo.pop()
    if name in seen:
        continue
    seen.add(name)
    with open(os.path.join(components, name, "manifest.json")) as f:
        manifest = json.load(f)
    todo += manifest.get("dependencies", [])
    requirements += [r for r in manifest.get("requirements", []) if r not in requirements]
print("\n".join(requirements))
