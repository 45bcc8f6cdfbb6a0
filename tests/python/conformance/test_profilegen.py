"""Conformance: `sediment-rows convert --to PROFILE` against ../shared/tools/profilegen.py (an independent
implementation of Sediment's SFT/DPO profile exporter), byte for byte, on every SFT/DPO profile, from canonical
rows that ../shared/tools/schemagen.py writes in Sediment's bytes and from Sediment's documented examples; and
`sediment-rows verify` on the folders of both. Skipped, saying so, when the shared folder is not there."""
import hashlib
import json
import os
import stat
import subprocess
import sys

import pytest

SHARED = os.environ.get("SEDIMENT_ROWS_SHARED_DIR", "")
PROFILEGEN = os.path.join(SHARED, "tools", "profilegen.py")
SCHEMAGEN = os.path.join(SHARED, "tools", "schemagen.py")
if not os.path.isfile(PROFILEGEN):
    pytest.skip("conformance suite skipped: no shared folder with tools/profilegen.py (SEDIMENT_ROWS_SHARED_DIR=%r)" % SHARED,
                allow_module_level=True)
CLI = os.environ["SEDIMENT_ROWS_CLI"]

SFT = ["hf-trl-sft-v1", "fireworks-sft-v1"]
DPO = ["hf-trl-dpo-v2", "fireworks-dpo-v2"]


def digest(value):
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True,
                                     separators=(",", ":")).encode()).hexdigest()


def sediment_line(value):
    return json.dumps(value, ensure_ascii=True, allow_nan=False) + "\n"


def schemagen(name, count, seed):
    return subprocess.run([sys.executable, SCHEMAGEN, name, str(count), "--sediment", "--seed", str(seed)],
                          check=True, capture_output=True, text=True).stdout


def fireworks_dpo_ready(text):
    """dpo-pair.v4 rows as fireworks-dpo-v2 takes them: one text-only chosen and rejected message, a system
    message first only, text messages only (schemagen's rows rarely are)."""
    out = []
    for line in text.splitlines():
        row = json.loads(line)
        prompt = [{"role": m["role"], "content": m.get("content", "")} for m in row["prompt"]
                  if m["role"] in ("system", "user", "assistant")]
        prompt = [m for i, m in enumerate(prompt) if m["role"] != "system" or i == 0]
        row["prompt"] = prompt
        for side in ("chosen", "rejected"):
            row[side] = [{"role": "assistant", "content": (row[side][-1].get("content", "") if row[side] else "")}]
        out.append(sediment_line(row))
    return "".join(out)


def canonical_rows(profile, tmp_path, seed):
    """Canonical rows the profile takes whole: schemagen's, less those profilegen leaves out (a refused row, an
    eval row whose prompt a train row has), each file's rows on one side as Sediment's exports hold them."""
    family = "sft-sample.v3" if profile in SFT else "dpo-pair.v4"
    text = schemagen(family, 160, seed)
    if profile == "fireworks-dpo-v2":
        text = fireworks_dpo_ready(text)
    source = tmp_path / "all.jsonl"
    source.write_text(text)
    dropped = tmp_path / "dropped"
    subprocess.run([sys.executable, PROFILEGEN, profile, str(source), str(dropped), "--drop-refused"], check=True,
                   capture_output=True)
    kept = set()
    for name in os.listdir(dropped):
        if name.startswith("evidence"):
            kept |= {json.loads(line)["source_row_sha256"] for line in (dropped / name).read_text().splitlines()}
    files = {}
    for line in text.splitlines(keepends=True):
        row = json.loads(line)
        if digest(row) in kept:
            files.setdefault(row["metadata"]["split"], []).append(line)
    paths = []
    for split, lines in sorted(files.items()):
        path = tmp_path / f"{family.split('.')[0].split('-')[0]}.{split}.jsonl"
        path.write_text("".join(lines))
        paths.append(path)
    assert sum(len(lines) for lines in files.values()) >= 20, "too few rows to compare"
    return paths


def tree(folder):
    """Every file's bytes and mode, and the folder's mode."""
    out = {".": stat.S_IMODE(os.stat(folder).st_mode)}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        out[name] = (stat.S_IMODE(os.stat(path).st_mode), open(path, "rb").read())
    return out


def reference(profile, inputs, out, *flags):
    joined = out.parent / (out.name + ".input.jsonl")
    joined.write_text("".join(p.read_text() for p in inputs))
    subprocess.run([sys.executable, PROFILEGEN, profile, str(joined), str(out), *flags], check=True, capture_output=True)


def ours(profile, inputs, out, *flags):
    return subprocess.run([CLI, "convert", "--to", profile, "--out", str(out), *flags, *map(str, inputs)],
                          capture_output=True, text=True)


def verify(folder, *canonical):
    args = [CLI, "verify", "--format", "jsonl"]
    for c in canonical:
        args += ["--canonical", str(c)]
    return subprocess.run(args + [str(folder)], capture_output=True, text=True)


@pytest.mark.parametrize("profile", SFT + DPO)
@pytest.mark.parametrize("layout", ["split", "no-split", "canonical-skipped"])
def test_convert_to_is_profilegens_folder_byte_for_byte(profile, layout, tmp_path):
    inputs = canonical_rows(profile, tmp_path, seed=7 if layout == "split" else 11)
    flags = {"split": [], "no-split": ["--no-split"],
             "canonical-skipped": ["--canonical-skipped", '{"below_confidence_floor": 2, "bucket_capped": 1}']}[layout]
    reference(profile, inputs, tmp_path / "ref", *flags)
    result = ours(profile, inputs, tmp_path / "ours", *flags)
    assert result.returncode == 0, result.stderr
    assert tree(tmp_path / "ours") == tree(tmp_path / "ref")
    names = set(os.listdir(tmp_path / "ours"))
    assert names == ({"compatibility.json", "data.jsonl", "evidence.jsonl"} if layout == "no-split" else
                     {"compatibility.json", "data.train.jsonl", "data.eval.jsonl", "evidence.train.jsonl",
                      "evidence.eval.jsonl"})
    for folder in ("ref", "ours"):
        checked = verify(tmp_path / folder, *inputs)
        assert checked.returncode == 0, checked.stdout
        summary = json.loads(checked.stdout.splitlines()[-1])["summary"]
        assert summary["profile"] == profile and summary["verified"] is True
        assert summary["rows"] == sum(len(p.read_text().splitlines()) for p in inputs)


@pytest.mark.parametrize("profile", SFT + DPO)
def test_sediments_documented_rows(profile, tmp_path):
    family = "sft-sample.v3" if profile in SFT else "dpo-pair.v4"
    row = json.load(open(os.path.join(SHARED, "fixtures", "family", f"{family}.sediment-docs-example.json")))
    source = tmp_path / f"{family.split('.')[0]}.{row['metadata']['split']}.jsonl"
    source.write_text(sediment_line(row))
    ref = subprocess.run([sys.executable, PROFILEGEN, profile, str(source), str(tmp_path / "ref")], capture_output=True, text=True)
    result = ours(profile, [source], tmp_path / "ours")
    if ref.returncode != 0:  # Sediment refuses it (a Fireworks rule): the same message, nothing written
        assert result.returncode == 1 and not (tmp_path / "ours").exists()
        assert result.stderr.strip().endswith(ref.stderr.strip().removeprefix("profilegen: ") + "; nothing written")
        return
    assert result.returncode == 0, result.stderr
    assert tree(tmp_path / "ours") == tree(tmp_path / "ref")
    assert verify(tmp_path / "ours", source).returncode == 0


@pytest.mark.parametrize("profile", ["fireworks-sft-v1", "fireworks-dpo-v2", "hf-trl-sft-v1"])
def test_refusals_say_what_profilegen_says(profile, tmp_path):
    """Rows profilegen refuses (a system message not first, several chosen messages, a prompt in train and eval):
    the export is refused with the same message, and nothing is written."""
    family = "sft-sample.v3" if profile in SFT else "dpo-pair.v4"
    text = schemagen(family, 120, 3)
    source = tmp_path / "rows.jsonl"
    source.write_text(text)
    ref = subprocess.run([sys.executable, PROFILEGEN, profile, str(source), str(tmp_path / "ref")], capture_output=True, text=True)
    assert ref.returncode == 1, "schemagen's rows were all taken: nothing refused to compare"
    result = ours(profile, [source], tmp_path / "ours")
    assert result.returncode == 1 and not (tmp_path / "ours").exists()
    message = ref.stderr.strip().removeprefix("profilegen: ")
    assert message in result.stderr, (message, result.stderr)
    assert os.listdir(tmp_path) == ["rows.jsonl"]  # no staging folder left behind
