#!/usr/bin/env python3
"""The ATIF readers against NeMo Gym's own loader, in one run on one core.

    bench/atif.py THROUGHPUT FIXTURES [--gym DIR] [--repeat N]

THROUGHPUT is the sediment-rows-atif-throughput binary (bench/atif.cpp); FIXTURES the folder of real
trajectories with EXPECTED.tsv (the subset's verdicts) and EXPECTED-harbor.tsv (Harbor's). DIR holds a
copy of NeMo Gym's `nemo_gym/atif_v1_7.py` and `nemo_gym/atif_json.py` (public repository
NVIDIA-NeMo/Gym; keep it outside the project), importable as `nemo_gym`; pydantic 2 must be installed.
Without --gym only the library's figures are printed.

The Python baselines, each over the trajectories valid under the subset, best of N:
  - NeMo Gym's loader: strict_json_loads (duplicate keys, NaN, overflow refused) then
    AtifTrajectoryV1_7.model_validate;
  - pydantic's own JSON parser: AtifTrajectoryV1_7.model_validate_json;
  - json.loads alone, for scale.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def valid_files(fixtures, table, column):
    names = []
    with open(os.path.join(fixtures, table), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) > column and cells[column] == "valid":
                names.append(os.path.join(fixtures, cells[0]))
    return sorted(names)


def best_of(repeat, documents, f):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for d in documents:
            f(d)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("throughput")
    parser.add_argument("fixtures")
    parser.add_argument("--gym")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    subset = valid_files(args.fixtures, "EXPECTED.tsv", 1)
    harbor = valid_files(args.fixtures, "EXPECTED-harbor.tsv", 2)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, inherited by the child
    out = subprocess.run([args.throughput, "--repeat", str(args.repeat), "--harbor", *harbor, "--", *subset],
                         check=True, capture_output=True, text=True).stdout
    print(out, end="")
    figures = {m.group(1).strip(): float(m.group(2)) for m in re.finditer(r"^(.{44}) +([0-9.]+) MB/s", out, re.M)}
    if not args.gym:
        print("NeMo Gym baseline skipped: no --gym DIR")
        return 0

    sys.path.insert(0, args.gym)
    from nemo_gym.atif_json import strict_json_loads
    from nemo_gym.atif_v1_7 import AtifTrajectoryV1_7

    documents = []
    for path in subset:
        with open(path, "rb") as f:
            documents.append(f.read())
    size = sum(len(d) for d in documents)
    for d in documents:  # the same verdicts, or the comparison means nothing
        AtifTrajectoryV1_7.model_validate(strict_json_loads(d))
        AtifTrajectoryV1_7.model_validate_json(d)

    def line(stage, seconds):
        mb = size / seconds / 1e6
        print(f"{stage:44} {mb:9.1f} MB/s {len(documents) / seconds:10.0f} docs/s")
        return mb

    gym = line("NeMo Gym: strict_json_loads + model_validate",
               best_of(args.repeat, documents, lambda d: AtifTrajectoryV1_7.model_validate(strict_json_loads(d))))
    pydantic = line("pydantic: model_validate_json",
                    best_of(args.repeat, documents, lambda d: AtifTrajectoryV1_7.model_validate_json(d)))
    line("json.loads alone", best_of(args.repeat, documents, json.loads))
    ours = figures["subset: decode() into one reused model"]
    fresh = figures["subset: decode() into a new model"]
    print(f"{'decode() / NeMo Gym loader':44} {ours / gym:9.2f}x (a new model per document: {fresh / gym:.2f}x)")
    print(f"{'decode() / model_validate_json':44} {ours / pydantic:9.2f}x (a new model per document: {fresh / pydantic:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
