"""sediment_rows.types: what a type checker knows of loads()'s values. Runs Debian's mypy on programs that
use the values, and checks the generated TypedDicts against the bundled schemas themselves."""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import sediment_rows
from sediment_rows import types

pytest.importorskip("mypy", reason="mypy is not installed (cmake/install-deps.sh installs Debian's mypy)")

PACKAGE_DIR = os.path.dirname(os.path.dirname(sediment_rows.__file__))  # the folder holding sediment_rows/


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One mypy cache for this file's runs: the standard library is read once, not at every run."""
    return str(tmp_path_factory.mktemp("mypy-cache"))


def mypy(tmp_path, source, *options, cache_dir):
    """Runs mypy on `source` as a module of its own; its exit code and its lines."""
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source))
    env = dict(os.environ, MYPYPATH=PACKAGE_DIR)
    done = subprocess.run([sys.executable, "-m", "mypy", *options, "--cache-dir", cache_dir,
                           "--no-error-summary", str(program)], capture_output=True, text=True, env=env)
    return done.returncode, [line for line in done.stdout.splitlines() if ": note: " not in line or "Revealed type" in line]


GOOD = """
    from typing import List
    import sediment_rows
    from sediment_rows.types import NemoGymRolloutRowV4

    def sessions(lines: List[bytes]) -> List[str]:
        rows: List[NemoGymRolloutRowV4] = [sediment_rows.loads(line, "nemo-gym-rollout.v4") for line in lines]
        out = [row["metadata"]["session_id"] for row in rows]
        for row in rows:
            if "reward" in row:
                out.append(str(row["reward"] + 1.0))
            out.extend(message["role"] for message in row["responses_create_params"]["input"])
        any_version = sediment_rows.loads(lines[0])
        out.append(any_version["metadata"]["session_id"])
        other = sediment_rows.loads(lines[0], "sft-sample.v3")
        out.append(other["metadata"]["schema_id"])
        return out
"""


def test_mypy_passes_a_program_that_uses_the_fields_as_the_schema_says(tmp_path, cache):
    code, lines = mypy(tmp_path, GOOD, "--strict", cache_dir=cache)
    assert code == 0, lines
    assert lines == []


def test_mypy_fails_a_program_that_misspells_a_field_or_mistakes_its_type(tmp_path, cache):
    code, lines = mypy(tmp_path, """
        import sediment_rows

        def session(line: bytes) -> str:
            row = sediment_rows.loads(line, "nemo-gym-rollout.v4")
            return row["metadata"]["sesion_id"]

        def segment(line: bytes) -> str:
            return sediment_rows.loads(line, "nemo-gym-rollout.v4")["metadata"]["segment_index"]
    """, cache_dir=cache)
    assert code == 1
    assert len(lines) == 2, lines
    assert re.search(r'program\.py:6: error: TypedDict "NemoGymMetadataV4" has no key "sesion_id"', lines[0]), lines
    assert re.search(r'program\.py:9: error: Incompatible return value type \(got "int", expected "str"\)', lines[1]), lines


def test_every_schema_name_gives_its_own_root_type(tmp_path, cache):
    bases = _names_with_versions()
    assert bases and set(bases) < set(sediment_rows.schemas())
    names = [n for n in sediment_rows.schemas() if n != "any" and n not in bases]
    program = "import sediment_rows\n" + "".join(
        f"reveal_type(sediment_rows.loads(b'', {n!r}))\n" for n in names + bases + ["any"])
    code, lines = mypy(tmp_path, program, cache_dir=cache)
    revealed = [re.search(r"TypedDict\('sediment_rows\.types\.(\w+)'|Union\[", line) for line in lines]
    assert len(lines) == len(names) + len(bases) + 1, lines
    assert all(revealed[:-1]), [line for line, r in zip(lines, revealed) if not r]
    assert lines[-1].endswith('Revealed type is "Any"'), lines[-1]  # "any": a document of any family
    for name, match in zip(names, revealed):
        root = getattr(types, match.group(1))  # the TypedDict mypy names, as Python sees it
        assert _keys(root) == _schema_keys(name), name


def _names_with_versions():
    """The base names loads() takes for a family whose documents name their version ("sft-sample")."""
    out = []
    for name in sediment_rows.schemas():
        base = name.rsplit(".v", 1)[0]
        if base == name or base in out:
            continue
        try:
            sediment_rows.loads(b"{}", base)
        except sediment_rows.DecodeError:
            out.append(base)
        except ValueError:
            pass
    return out


def _keys(typed_dict):
    return set(typed_dict.__required_keys__), set(typed_dict.__optional_keys__)


def _schema_keys(name):
    """The root's required and optional keys, read from the bundled schema's own text."""
    schema = json.loads(sediment_rows.schema_text(name))
    root = schema
    while "$ref" in root:
        root = schema["$defs"][root["$ref"].rsplit("/", 1)[1]]
    required = set(root.get("required", []))
    return required, set(root["properties"]) - required


def test_the_types_module_names_every_models_unversioned_name_as_the_newest_version():
    assert types.NemoGymRolloutRow is types.NemoGymRolloutRowV4
    assert types.AnyNemoGymRolloutRow.__args__ == (types.NemoGymRolloutRowV1, types.NemoGymRolloutRowV2,
                                                   types.NemoGymRolloutRowV3, types.NemoGymRolloutRowV4)


def test_the_package_itself_passes_mypy_strict(tmp_path, cache):
    """A user who type-checks the package with their code, or vendors it, sees no error of ours."""
    env = dict(os.environ, MYPYPATH=PACKAGE_DIR)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", cache, "-p", "sediment_rows"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("Success: no issues found in 4 source files"), done.stdout


def test_read_yields_documents_typed_by_the_schema_name(tmp_path, cache):
    code, lines = mypy(tmp_path, """
        import sediment_rows

        for doc in sediment_rows.read("rows.jsonl", "sft-sample.v3"):
            reveal_type(doc.value)
        for row in sediment_rows.read("rows.jsonl", jobs=2):
            if row.value is not None:
                reveal_type(row.value["metadata"]["session_id"])
        for v4 in sediment_rows.read("rows.jsonl", "nemo-gym-rollout.v4"):
            if v4.value is not None:
                v4.value["metadata"]["sesion_id"]
    """, "--strict", cache_dir=cache)
    assert code == 1, lines
    assert re.search(r'program\.py:5: note: Revealed type is "Union\[TypedDict\(\'sediment_rows\.types\.SFTSampleV3\'', lines[0]), lines
    assert re.search(r'program\.py:8: note: Revealed type is "builtins\.str"', lines[1]), lines
    assert re.search(r'program\.py:11: error: TypedDict "NemoGymMetadataV4" has no key "sesion_id"', lines[2]), lines
    assert len(lines) == 3, lines
