"""sediment_rows.write_profile() and verify(): the consumer profile folders of docs/profiles.md, from the example
canonical SFT export (examples/sft.*.jsonl). profilegen.py comparisons: conformance/test_profiles.py."""
import hashlib
import json
import os
import subprocess

import pytest

import sediment_rows

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
SFT = [os.path.join(EXAMPLES, "sft.train.jsonl"), os.path.join(EXAMPLES, "sft.eval.jsonl")]


def test_write_profile_is_the_cli_folder_and_verifies(tmp_path):
    manifest = sediment_rows.write_profile(SFT, "fireworks-sft-v1", tmp_path / "py", canonical_skipped={"bucket_capped": 1}, jobs=1)
    subprocess.run([os.environ["SEDIMENT_ROWS_CLI"], "convert", "-q", "--to", "fireworks-sft-v1", "--out", str(tmp_path / "cli"),
                    "--canonical-skipped", '{"bucket_capped": 1}', *SFT], check=True)
    for name in sorted(os.listdir(tmp_path / "cli")):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert manifest == json.loads((tmp_path / "py" / "compatibility.json").read_text())
    assert manifest["rows"] == 4 and manifest["canonical_skipped"] == {"bucket_capped": 1}
    for name, entry in manifest["files"].items():
        data = (tmp_path / "py" / name).read_bytes()
        assert entry == {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    result = sediment_rows.verify(tmp_path / "py", canonical=SFT)
    assert result == sediment_rows.Verification("fireworks-sft-v1", 4, {"eval": 1, "train": 3}, [])
    assert result.ok


def test_verify_names_each_finding(tmp_path):
    sediment_rows.write_profile(SFT, "hf-trl-sft-v1", tmp_path / "p")
    (tmp_path / "p" / "notes.txt").write_text("mine")
    lines = (tmp_path / "p" / "evidence.train.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "p" / "evidence.train.jsonl").write_text("".join(lines[:2]))
    result = sediment_rows.verify(tmp_path / "p")
    assert not result.ok and result.profile == "hf-trl-sft-v1"
    found = {(f.file, f.line, f.error.id, f.error.pointer) for f in result.findings}
    assert ("notes.txt", 0, "rows.verify.file_extra", "") in found
    assert ("evidence.train.jsonl", 3, "rows.verify.line_count", "") in found
    assert ("evidence.train.jsonl", 0, "rows.verify.file_sha256", "") in found
    with pytest.raises(NotADirectoryError):
        sediment_rows.verify(tmp_path / "nowhere")
    assert sediment_rows.verify(tmp_path).findings[0].error.id == "rows.verify.manifest"


def test_refusals(tmp_path):
    with pytest.raises(sediment_rows.ProfileError, match=r"sft.train.jsonl:1: fireworks-dpo-v2: invalid canonical row$"):
        sediment_rows.write_profile(SFT, "fireworks-dpo-v2", tmp_path / "dpo")
    assert not (tmp_path / "dpo").exists()
    with pytest.raises(ValueError, match="profile fireworks-dpo-v1 is retired; use fireworks-dpo-v2"):
        sediment_rows.write_profile(SFT, "fireworks-dpo-v1", tmp_path / "dpo")
    with pytest.raises(OSError):
        sediment_rows.write_profile([tmp_path / "missing.jsonl"], "hf-trl-sft-v1", tmp_path / "x")
    sediment_rows.write_profile(SFT, "hf-trl-sft-v1", tmp_path / "p")
    with pytest.raises(sediment_rows.ProfileError, match="consumer destination already exists"):
        sediment_rows.write_profile(SFT, "hf-trl-sft-v1", tmp_path / "p")


def test_profile_rows_load_typed(tmp_path):
    sediment_rows.write_profile(SFT, "hf-trl-sft-v1", tmp_path / "p", split=False)
    assert sorted(os.listdir(tmp_path / "p")) == ["compatibility.json", "data.jsonl", "evidence.jsonl"]
    line = (tmp_path / "p" / "data.jsonl").read_bytes().splitlines()[0]
    row = sediment_rows.loads(line, "hf-trl-sft-v1")
    assert list(row) == ["prompt", "completion", "tools"] and row["tools"] == []
    evidence = sediment_rows.loads((tmp_path / "p" / "evidence.jsonl").read_bytes().splitlines()[0], "sft-profile-evidence")
    assert evidence["tool_definitions"] == "absent"
    with pytest.raises(sediment_rows.DecodeError) as e:
        sediment_rows.loads(line.replace(b'"tools": []', b'"tools": [], "x": 1'), "hf-trl-sft-v1")
    assert e.value.errors[0].id == "rows.decode.unknown_key"


SWE = os.path.join(EXAMPLES, "swe-bench.jsonl")
CONFIG = os.path.join(EXAMPLES, "consumer-config.json")


def _digest(value):
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_swe_bench_tasks_bind_each_task_to_its_row(tmp_path):
    """consumer_rlvr.py adapt_swe_rows(), written out here in Python: the settings (normalized), then the row's
    instance_id and patch; the evidence ties the line to its row and the config."""
    config = json.load(open(CONFIG))
    manifest = sediment_rows.write_profile([SWE], "swe-bench-tasks-v1", tmp_path / "p", consumer_config=config,
                                           fragmented={"replay_gap": 1})
    assert manifest["rows"] == 2 and manifest["fragmented"] == {"replay_gap": 1} and manifest["skipped"] == {}
    canonical = {json.loads(line)["instance_id"]: json.loads(line) for line in open(SWE)}
    task = dict(config["tasks"]["acme__widgets-1"], repo="acme/widgets", version="2.1", created_at="2026-03-04T09:15:00+01:00")
    dumped = {"schema_version": 1, "nemo": None, "tasks": {
        "acme__widgets-1": task,
        "acme__widgets-2": dict(config["tasks"]["acme__widgets-2"], repo="acme/widgets", created_at="2026-03-05T16:40:12.250000Z")}}
    row = canonical["acme__widgets-1"]
    body = dict(task, instance_id=row["instance_id"], patch=row["patch"])
    data = (tmp_path / "p" / "data.train.jsonl").read_text()
    assert data == json.dumps(body) + "\n"
    evidence = {"row_sha256": _digest(body), "canonical_schema": row["metadata"]["schema_id"], "metadata": row["metadata"],
                "source_row_sha256": _digest(row), "prompt_sha256": _digest({"prompt": task["problem_statement"]}),
                "task_configuration_source": "operator", "configuration_digest": _digest(dumped),
                "captured_first_user_message": row["problem_statement"]}
    assert (tmp_path / "p" / "evidence.train.jsonl").read_text() == json.dumps(evidence) + "\n"
    assert sediment_rows.verify(tmp_path / "p", canonical=[SWE], consumer_config=CONFIG).ok
    # the same folder from the command line
    subprocess.run([os.environ["SEDIMENT_ROWS_CLI"], "convert", "-q", "--to", "swe-bench-tasks-v1", "--consumer-config", CONFIG,
                    "--fragmented", '{"replay_gap": 1}', "--out", str(tmp_path / "cli"), SWE], check=True)
    for name in sorted(os.listdir(tmp_path / "cli")):
        assert (tmp_path / "p" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_swe_bench_refusals_and_another_config(tmp_path):
    config = json.load(open(CONFIG))
    with pytest.raises(sediment_rows.ProfileError, match=r"swe-bench.jsonl:1: SWE-bench task configuration missing for acme__widgets-1$"):
        sediment_rows.write_profile([SWE], "swe-bench-tasks-v1", tmp_path / "none")
    assert not (tmp_path / "none").exists()
    config["tasks"]["acme__widgets-2"]["PASS_TO_PASS"] = config["tasks"]["acme__widgets-2"]["FAIL_TO_PASS"]
    with pytest.raises(sediment_rows.ProfileError, match=r"swe-bench.jsonl:2: SWE-bench test transitions overlap$"):
        sediment_rows.write_profile([SWE], "swe-bench-tasks-v1", tmp_path / "overlap", consumer_config=config)
    config["tasks"]["acme__widgets-2"]["created_at"] = "2026-03-05T16:40:12"
    with pytest.raises(sediment_rows.ProfileError, match=r"^consumer config: /tasks/acme__widgets-2/created_at: .*\[rows.decode.aware_datetime\]$"):
        sediment_rows.write_profile([SWE], "swe-bench-tasks-v1", tmp_path / "naive", consumer_config=config)
    sediment_rows.write_profile([SWE], "swe-bench-tasks-v1", tmp_path / "p", consumer_config=CONFIG)
    other = json.load(open(CONFIG))
    other["tasks"]["acme__widgets-1"]["hints_text"] = "see csv.py"
    result = sediment_rows.verify(tmp_path / "p", consumer_config=other)
    assert {(f.file, f.line, f.error.id) for f in result.findings} == {
        ("evidence.train.jsonl", 1, "rows.verify.configuration_digest"), ("evidence.eval.jsonl", 1, "rows.verify.configuration_digest")}
    with pytest.raises(sediment_rows.ProfileError, match="unknown key 'nemo_settings'"):
        sediment_rows.verify(tmp_path / "p", consumer_config={"nemo_settings": None})
