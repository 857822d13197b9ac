#!/usr/bin/env python3
"""The Swift modules the `ledring` executable is built from, bottom up, read from the package
itself (`swift package describe --type json` on standard input), so tools/embedded-build.sh never
keeps a list of its own that can drift from Package.swift.

usage: swift package describe --type json | modules-of.py PRODUCT [--except MODULE ...]

Prints one module per line, each after every module it depends on: the Swift targets reachable
from PRODUCT's targets, without C targets (their headers are given to swiftc instead) and
without the modules named after --except (with what they alone bring in)."""
import json
import sys


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    product, excluded = args[0], set()
    if "--except" in args:
        excluded = set(args[args.index("--except") + 1:])
    package = json.load(sys.stdin)
    targets = {t["name"]: t for t in package["targets"]}
    products = {p["name"]: p for p in package["products"]}
    if product not in products:
        sys.exit(f"modules-of: no product {product} in the package (products: {', '.join(sorted(products))})")
    unknown = excluded - set(targets)
    if unknown:
        sys.exit(f"modules-of: --except names no target: {', '.join(sorted(unknown))}")

    def is_swift(name):
        target = targets[name]
        return target.get("module_type") == "SwiftTarget" or (
            "module_type" not in target and any(s.endswith(".swift") for s in target.get("sources", [])))

    order, seen = [], set()

    def visit(name):
        if name in seen or name in excluded:
            return
        seen.add(name)
        for dependency in targets[name].get("target_dependencies", []):
            visit(dependency)
        if is_swift(name):
            order.append(name)

    for name in products[product]["targets"]:
        visit(name)
    print("\n".join(order))


main()
