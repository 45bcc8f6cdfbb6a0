"""Conformance: the Python module on rows and parts of every version from ../shared/tools/rowgen.py, in the
exact bytes Sediment's exporter writes. Skipped, saying so, when the shared folder is not there."""
import json
import os
import subprocess
import sys

import pytest

import sediment_rows

SHARED = os.environ.get("SEDIMENT_ROWS_SHARED_DIR", "")
ROWGEN = os.path.join(SHARED, "tools", "rowgen.py")
if not os.path.isfile(ROWGEN):
    pytest.skip("conformance suite skipped: no shared folder with tools/rowgen.py (SEDIMENT_ROWS_SHARED_DIR=%r)" % SHARED,
                allow_module_level=True)

KINDS = [("rows", "nemo-gym-rollout", v) for v in (1, 2, 3, 4)] + \
        [("response", "nemo-gym-response", v) for v in (1, 2, 3)] + \
        [("create-params", "nemo-gym-responses-create-params", v) for v in (1, 2)] + \
        [("ci-outcome", "ci-outcome", v) for v in (1, 2, 3)]


def rowgen(kind, count, version, *flags):
    command = [sys.executable, ROWGEN] + (["rows"] if kind == "rows" else ["part", kind]) + \
              [str(count), "--version", str(version), "--sediment", *flags]
    return subprocess.run(command, check=True, capture_output=True).stdout


@pytest.mark.parametrize("kind,base,version", KINDS)
def test_loads_dumps_give_back_sediments_bytes(kind, base, version):
    schema = f"{base}.v{version}"
    lines = rowgen(kind, 60, version).splitlines()
    for line in lines:
        value = sediment_rows.loads(line, schema)
        assert value == json.loads(line)
        assert sediment_rows.dumps(value, schema, style="sediment") == line
        assert sediment_rows.validate(line, schema) == [] and sediment_rows.validate(line, schema, engine="schema") == []


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_files_of_faithful_rows(tmp_path, version):
    data = rowgen("rows", 300, version, "--faithful")
    path = tmp_path / "rows.jsonl"
    path.write_bytes(data)
    assert sediment_rows.validate_file(path, "nemo-gym-rollout", jobs=2) == sediment_rows.Validation(300, 0, [])
    lines = data.splitlines()
    for doc in sediment_rows.read(path, "nemo-gym-rollout"):
        assert doc.errors == [] and doc.value == json.loads(lines[doc.line - 1])
        row = sediment_rows.convert(lines[doc.line - 1], "nemo-gym-rollout", "atif-v1.7")
        back = sediment_rows.convert(row.data, "atif-v1.7", "nemo-gym-rollout", style="sediment")
        assert back.data == lines[doc.line - 1]
