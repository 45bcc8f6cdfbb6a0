"""The Python module against the library's own verdicts (run by ctest with the build tree importable)."""
import threading

import pytest

import sediment_rows

ROW_PATH = __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "..", "examples", "rows.jsonl")


def example_rows():
    with open(ROW_PATH, "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def test_version_and_schemas():
    assert sediment_rows.__version__.count(".") == 2
    names = sediment_rows.schemas()
    assert names[0] == "nemo-gym-rollout.v2"
    assert {"atif-v1.7", "atif", "nemo-gym-rollout.v4", "ci-outcome.v3"} <= set(names)
    assert len(names) == len(set(names))


def test_schema_text_is_the_bundled_file():
    import os
    root = os.path.join(os.path.dirname(__file__), "..", "..", "schemas")
    for name in sediment_rows.schemas():
        with open(os.path.join(root, name + ".schema.json"), "rb") as f:
            assert sediment_rows.schema_text(name) == f.read()
    with pytest.raises(ValueError, match="unknown schema 'nope'"):
        sediment_rows.schema_text("nope")


def test_validate_valid_rows_bytes_and_str():
    for line in example_rows():
        assert sediment_rows.validate("nemo-gym-rollout.v2", line) == []
        assert sediment_rows.validate("nemo-gym-rollout.v2", line.decode()) == []
        assert sediment_rows.validate("nemo-gym-rollout.v2", line, engine="schema") == []
        assert sediment_rows.validate("nemo-gym-rollout", line) == []


def test_validate_errors_have_pointer_message_and_id():
    line = example_rows()[0]
    bad = line[:-1] + b', "debug": 1}'
    for engine in ("typed", "schema"):
        errors = sediment_rows.validate("nemo-gym-rollout.v2", bad, engine=engine)
        assert errors, engine
        assert all(isinstance(e, sediment_rows.Error) for e in errors)
    typed = sediment_rows.validate("nemo-gym-rollout.v2", bad)
    assert (typed[0].id, typed[0].pointer, typed[0].message) == ("rows.decode.unknown_key", "", "unknown key 'debug'")
    assert "unknown key 'debug'" in str(typed[0]) and "Error(id='rows.decode.unknown_key'" in repr(typed[0])
    not_json = sediment_rows.validate("ci-outcome.v1", b"{")
    assert not_json[0].id.startswith("rows.parse.")


def test_validate_arguments():
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.validate("nemo-gym-rollout.v9", b"{}")
    with pytest.raises(ValueError, match="engine"):
        sediment_rows.validate("ci-outcome.v1", b"{}", engine="fast")
    with pytest.raises(TypeError, match="bytes or str"):
        sediment_rows.validate("ci-outcome.v1", 3)


def test_threads_give_the_same_verdicts():
    lines = example_rows() * 50 + [example_rows()[0][:-1] + b', "x": 1}'] * 50
    expected = [sediment_rows.validate("nemo-gym-rollout.v2", l) for l in lines]
    results = [None] * 4

    def work(k):
        results[k] = [sediment_rows.validate("nemo-gym-rollout.v2", l) for l in lines]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results)


def test_decode_error_lists_errors():
    errors = sediment_rows.validate("ci-outcome.v1", b"{")
    e = sediment_rows.DecodeError(errors)
    assert e.errors == errors and isinstance(e, ValueError)
