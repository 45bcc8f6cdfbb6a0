#!/usr/bin/env python3
"""The baseline of `sediment-rows verify`'s speed (bench/run.sh): a straightforward Python check of a consumer
profile folder with the standard library, as a pipeline would write it. It checks each file's SHA-256 and size
against the manifest, that the manifest is in digest form, and for each pair of data and evidence files that they
have as many lines, that each line is in Sediment's line form (json.loads, then json.dumps gives it back), and that
each evidence record's row_sha256 is the SHA-256 of its data line's digest form. (verify checks much more: the
models, order, splits, counts, prompts, the canonical digests.) Exit 1 on a difference.

    verify_profile.py FOLDER
"""
import hashlib
import json
import os
import sys


def digest_form(value):
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def main(folder):
    with open(os.path.join(folder, "compatibility.json"), "rb") as f:
        raw = f.read()
    manifest = json.loads(raw)
    ok = raw == (digest_form(manifest) + "\n").encode()
    for name, entry in manifest["files"].items():
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        ok = ok and hashlib.sha256(data).hexdigest() == entry["sha256"] and len(data) == entry["bytes"]
    for name in manifest["files"]:
        if not name.startswith("data"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as d, \
                open(os.path.join(folder, "evidence" + name[len("data"):]), encoding="utf-8") as e:
            data, evidence = d.readlines(), e.readlines()
        ok = ok and len(data) == len(evidence)
        for line, record in zip(data, evidence):
            row, ev = json.loads(line), json.loads(record)
            ok = ok and json.dumps(row) + "\n" == line and json.dumps(ev) + "\n" == record
            ok = ok and ev["row_sha256"] == hashlib.sha256(digest_form(row).encode()).hexdigest()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
