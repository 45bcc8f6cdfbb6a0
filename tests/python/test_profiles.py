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
