#!/usr/bin/env python3
"""Finds functions of ledring's own modules that Embedded Swift compiled to a bare trap and that
something calls (tools/embedded-build.sh runs it on the host binary's `objdump -d`).

Embedded Swift 6.3 compiles a call from another module to an extension method of a class
existential into a call to a function whose whole body is `ud2`: it builds and links, and traps
when run. Unspecialized generic bodies are emitted the same way but are never called, so only
called ones count. Exit status 1 and one line per offender when there are any.
"""
import re
import sys

OWN = ("$e10RingRender", "$e7LEDWire", "$e7LEDJSON", "$e9LEDSystem", "$e14LEDRingControl",
       "$e15LEDPresentation", "$e11LEDHardware", "$e10LEDRingApp", "$e7ledring")

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
traps = set()
for line in lines:
    m = re.match(r"\s+([0-9a-f]+):\s+ud2\b", line)
    if m:
        traps.add(int(m.group(1), 16))

stubs = {}
current = None
first = False
for line in lines:
    m = re.match(r"([0-9a-f]+) <(.*)>:$", line)
    if m:
        current = (int(m.group(1), 16), m.group(2))
        first = True
        continue
    if first and line.strip():
        first = False
        if current[1].startswith(OWN):
            if re.match(r"\s+[0-9a-f]+:\s+ud2\b", line):
                stubs[current[0]] = current[1]
            j = re.match(r"\s+[0-9a-f]+:\s+jmp\s+([0-9a-f]+)", line)
            if j and int(j.group(1), 16) in traps:
                stubs[current[0]] = current[1]

called = {}
for line in lines:
    m = re.match(r"\s+[0-9a-f]+:\s+(call|jmp)\s+([0-9a-f]+)", line)
    if m and int(m.group(2), 16) in stubs:
        called[int(m.group(2), 16)] = stubs[int(m.group(2), 16)]

for name in sorted(called.values()):
    print(f"trap stub called: {name}")
sys.exit(1 if called else 0)
