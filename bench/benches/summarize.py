#!/usr/bin/env python3
"""Prints criterion's medians (target/criterion) as Markdown tables.

Usage: cargo bench -p noisefield-bench && python3 bench/benches/summarize.py
Throughput = elements per iteration / median time per iteration.
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
rows = {}
for est in sorted(root.glob("*/*/*/new/estimates.json")):
    bench = est.parent.parent
    meta = json.loads((est.parent / "benchmark.json").read_text())
    median_ns = json.loads(est.read_text())["median"]["point_estimate"]
    elements = (meta.get("throughput") or {}).get("Elements")
    group = meta["group_id"]
    rows.setdefault(group, []).append((meta["function_id"] or "", meta.get("value_str") or "", median_ns, elements))

for group, items in rows.items():
    print(f"\n### {group}\n")
    print("| benchmark | size | median time | Melem/s |")
    print("|---|---|---|---|")
    for function, value, ns, elements in items:
        rate = f"{elements / ns * 1e3:,.1f}" if elements else "-"
        time = f"{ns / 1e6:,.3f} ms" if ns >= 1e5 else f"{ns / 1e3:,.2f} µs"
        print(f"| {function} | {value} | {time} | {rate} |")
