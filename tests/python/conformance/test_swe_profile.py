"""Conformance: `sediment-rows convert --to swe-bench-tasks-v1` against a Python writing-out of Sediment's
consumer_rlvr.py (adapt_swe_rows(), ConsumerSettings) and compatibility.py (aligned_rows(),
publish_compatible_rows()) at ef084b9, byte for byte, from ../shared/tools/schemagen.py's swe-bench-task.v3 rows in
Sediment's bytes and configs whose values Sediment's types normalize; then `verify` on the folder. Skipped, saying
so, when the shared folder is not there."""
import datetime
import hashlib
import json
import os
import random
import re
import subprocess
import sys

import pytest

SHARED = os.environ.get("SEDIMENT_ROWS_SHARED_DIR", "")
SCHEMAGEN = os.path.join(SHARED, "tools", "schemagen.py")
if not os.path.isfile(SCHEMAGEN):
    pytest.skip("conformance suite skipped: no shared folder with tools/schemagen.py (SEDIMENT_ROWS_SHARED_DIR=%r)" % SHARED,
                allow_module_level=True)
CLI = os.environ["SEDIMENT_ROWS_CLI"]
MARKERS = "echo '>>>>> Start Test Output'\npytest\necho '>>>>> End Test Output'\n"


def digest_form(value):
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def digest(value):
    return hashlib.sha256(digest_form(value).encode()).hexdigest()


def line(value):
    return json.dumps(value, ensure_ascii=True, allow_nan=False) + "\n"


def spelled(rng, when):
    """A date-time as an operator may write it (one of the forms pydantic reads), and as pydantic writes it back."""
    form = rng.randrange(4)
    if form == 0:
        text = when.strftime("%Y-%m-%d %H:%M:%S") + ".%d" % (when.microsecond // 100000) + "+02:00"
        back = when.replace(microsecond=when.microsecond // 100000 * 100000, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    elif form == 1:
        text, back = when.strftime("%Y-%m-%dT%H:%M:%SZ"), when.replace(microsecond=0, tzinfo=datetime.timezone.utc)
    elif form == 2:
        text, back = when.strftime("%Y-%m-%dt%H:%M-00:00"), when.replace(second=0, microsecond=0, tzinfo=datetime.timezone.utc)
    else:
        text = when.strftime("%Y-%m-%dT%H:%M:%S.%f-0530")
        back = when.replace(tzinfo=datetime.timezone(-datetime.timedelta(hours=5, minutes=30)))
    written = back.isoformat()
    return text, written[:-6] + "Z" if written.endswith("+00:00") else written


def config_for(rows, rng):
    """An operator's config of the rows' tasks, and its model_dump(mode="json") (the values Sediment's types normalize)."""
    tasks, dumped = {}, {}
    for i, row in enumerate(rows):
        when = datetime.datetime(2020 + i % 6, 1 + i % 12, 1 + i % 28, i % 24, (7 * i) % 60, (13 * i) % 60, (123457 * i) % 1000000)
        created, created_back = spelled(rng, when)
        tests = ["tests/test_%d.py::test_%d" % (i, k) for k in range(1 + i % 3)]
        settings = {"repo": " %s\t" % row["repo"].upper(), "base_commit": row["base_commit"].upper(),
                    "problem_statement": "Task %d: %s" % (i, row["problem_statement"]), "test_patch": row["patch"][:40],
                    "hints_text": "" if i % 2 else "h\u00e9", "created_at": created, "version": " %d.%d " % (i % 4, i % 7),
                    "environment_setup_commit": row["base_commit"], "FAIL_TO_PASS": [" %s " % t for t in tests],
                    "PASS_TO_PASS": ["tests/test_%d.py::test_ok" % i], "image": "img:%d" % i, "eval_script": "#!/bin/bash\n" + MARKERS,
                    "log_parser": "pytest", "eval_type": "fail_only" if i % 2 else "pass_and_fail"}
        tasks[" %s " % row["instance_id"]] = settings
        dumped[row["instance_id"]] = dict(settings, repo=row["repo"].lower(), base_commit=row["base_commit"].lower(), created_at=created_back,
                                          version=settings["version"].strip(), FAIL_TO_PASS=tests)
    return {"schema_version": 1, "tasks": tasks}, {"schema_version": 1, "nemo": None, "tasks": dumped}


def reference_folder(rows, dumped, out, fragmented):
    """The folder as Sediment publishes it: each row adapted, sorted, split files, the manifest in digest form."""
    configuration = digest(dumped)
    pairs = []
    for row in rows:
        task = dumped["tasks"][row["instance_id"]]
        body = dict(task, instance_id=row["instance_id"], patch=row["patch"])
        evidence = {"canonical_schema": row["metadata"]["schema_id"], "metadata": row["metadata"], "source_row_sha256": digest(row),
                    "prompt_sha256": digest({"prompt": task["problem_statement"]}), "task_configuration_source": "operator",
                    "configuration_digest": configuration, "captured_first_user_message": row["problem_statement"]}
        pairs.append((row["metadata"]["split"], body, evidence))
    pairs.sort(key=lambda p: (p[0], digest(p[1]), digest_form(p[2])))
    os.makedirs(out)
    files, by_split = {}, {}
    for split in ("eval", "train"):
        chosen = [p for p in pairs if p[0] == split]
        if not chosen:
            continue
        by_split[split] = len(chosen)
        for name, text in (("data.%s.jsonl" % split, "".join(line(b) for _, b, _ in chosen)),
                           ("evidence.%s.jsonl" % split, "".join(line(dict({"row_sha256": digest(b)}, **e)) for _, b, e in chosen))):
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text)
            files[name] = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "bytes": len(text.encode())}
    manifest = {"profile": {"id": "swe-bench-tasks-v1", "consumer": "swe-bench", "objective": "rlvr", "profile_version": 1,
                            "canonical_schema": "https://sediment.so/schemas/training-rows/swe-bench-task/v3.json",
                            "dependencies": [["swebench", "5.0.1"], ["datasets", "5.0.1"]],
                            "validation": "swebench.harness.utils.load_swebench_dataset; make_test_spec",
                            "support": "loader and runtime parser; repository tests not run"},
                "rows": len(pairs), "skipped": {}, "canonical_skipped": {}, "fragmented": fragmented, "files": files,
                "training_execution": "not_run", "tool_definitions": "not_inferred",
                "diagnostics": {"rows_by_split": by_split, "reward_counts": {}, "exact_prompt_overlap": 0, "semantic_task_overlap": "not_assessed"}}
    with open(os.path.join(out, "compatibility.json"), "w", encoding="utf-8") as f:
        f.write(digest_form(manifest) + "\n")


@pytest.mark.parametrize("seed", [3, 17])
def test_convert_to_swe_bench_tasks_is_sedimets_folder_byte_for_byte(seed, tmp_path):
    text = subprocess.run([sys.executable, SCHEMAGEN, "swe-bench-task.v3", "60", "--sediment", "--seed", str(seed)],
                          check=True, capture_output=True, text=True).stdout
    # one row a task; rows a config can name (its keys are stripped ids; Sediment's CommitSha and RepoSlug: a
    # full commit, a name in its normal form), whose name has no capital sigma, which Python lowercases by context
    rows = [r for r in {json.loads(l)["instance_id"]: json.loads(l) for l in text.splitlines()}.values()
            if r["instance_id"] == r["instance_id"].strip() and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", r["base_commit"]) and r["repo"] == r["repo"].strip().lower()
            and "\u03a3" not in r["repo"].upper() and (r["repo"] == "" or r["repo"].count("/") == 1)]
    assert len(rows) >= 20
    with open(tmp_path / "swe-bench.jsonl", "w", encoding="utf-8") as f:
        f.write("".join(line(r) for r in rows))
    config, dumped = config_for(rows, random.Random(seed))
    with open(tmp_path / "config.json", "w", encoding="utf-8") as f:
        json.dump(config, f)
    reference_folder(rows, dumped, str(tmp_path / "reference"), {"replay_gap": 2})
    subprocess.run([CLI, "convert", "-q", "--to", "swe-bench-tasks-v1", "--consumer-config", str(tmp_path / "config.json"),
                    "--fragmented", '{"replay_gap": 2}', "--out", str(tmp_path / "ours"), str(tmp_path / "swe-bench.jsonl")], check=True)
    names = sorted(os.listdir(tmp_path / "reference"))
    assert sorted(os.listdir(tmp_path / "ours")) == names
    for name in names:
        assert (tmp_path / "ours" / name).read_bytes() == (tmp_path / "reference" / name).read_bytes(), name
    done = subprocess.run([CLI, "verify", "--canonical", str(tmp_path / "swe-bench.jsonl"), "--consumer-config",
                           str(tmp_path / "config.json"), str(tmp_path / "reference")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
