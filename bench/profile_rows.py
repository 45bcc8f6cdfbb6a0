#!/usr/bin/env python3
"""Canonical rows (sft-sample.v3 or dpo-pair.v4, one per line on stdin) that Sediment would export whole as a
split consumer profile: each eval row whose exact prompt (the digest of {"prompt": ...}) a train row also has is
left out, since Sediment refuses such an export (compatibility.py publish_compatible_rows()). For bench/run.sh's
profile figures, over schemagen.py's rows, which repeat prompts across splits."""
import hashlib
import json
import sys


def prompt_digest(row):
    text = json.dumps({"prompt": row["prompt"]}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


lines = sys.stdin.readlines()
rows = [json.loads(line) for line in lines]
train = {prompt_digest(r) for r in rows if r["metadata"]["split"] == "train"}
sys.stdout.writelines(line for line, r in zip(lines, rows)
                      if r["metadata"]["split"] == "train" or prompt_digest(r) not in train)
