"""The Python module against the library's own verdicts (run by ctest with the build tree importable)."""
import os
import threading

import pytest

import sediment_rows

ROW_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rows.jsonl")


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


def test_loads_and_dumps_give_back_sediments_bytes():
    for line in example_rows():
        value = sediment_rows.loads("nemo-gym-rollout.v2", line)
        assert isinstance(value, dict) and list(value)[0] == "responses_create_params"
        assert sediment_rows.dumps("nemo-gym-rollout.v2", value, style="sediment") == line
        assert sediment_rows.loads("nemo-gym-rollout", line.decode()) == value
        assert sediment_rows.loads("nemo-gym-rollout.v2", sediment_rows.dumps("nemo-gym-rollout.v2", value)) == value


def test_loads_values_are_plain_python_and_exact():
    import json
    line = example_rows()[0]
    value = sediment_rows.loads("nemo-gym-rollout.v2", line)
    assert value == json.loads(line)  # the same values as Python's own reader
    content = value["responses_create_params"]["input"][1]["parts"][0]["content"]
    assert content.endswith("\u00e9\U0001F600")  # escapes decoded, a surrogate pair as one character
    # integers of any size, decimals as floats, null as None, absent keys absent (ATIF)
    trajectory = {"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1", "extra": {"z": None, "a": 1.5}},
                  "steps": [{"step_id": 1, "source": "agent", "message": "",
                             "metrics": {"prompt_tokens": 2 ** 70, "cost_usd": 0.1, "completion_tokens": 3}}]}
    text = json.dumps(trajectory)
    back = sediment_rows.loads("atif-v1.7", text)
    assert back["steps"][0]["metrics"]["prompt_tokens"] == 2 ** 70
    assert type(back["steps"][0]["metrics"]["cost_usd"]) is float
    assert list(back["steps"][0]["metrics"]) == ["prompt_tokens", "completion_tokens", "cost_usd"]  # the schema's order
    assert list(back["agent"]["extra"]) == ["z", "a"]  # a free-form object keeps its own
    assert back["agent"]["extra"]["z"] is None and "model_name" not in back["agent"]
    assert sediment_rows.dumps("atif-v1.7", back) == sediment_rows.dumps("atif-v1.7", trajectory)


def test_loads_refuses_with_every_error():
    line = example_rows()[0]
    with pytest.raises(sediment_rows.DecodeError) as caught:
        sediment_rows.loads("nemo-gym-rollout.v2", line[:-1] + b', "debug": 1, "x": 2}')
    assert [(e.id, e.pointer) for e in caught.value.errors] == [("rows.decode.unknown_key", ""), ("rows.decode.unknown_key", "")]
    with pytest.raises(sediment_rows.DecodeError):
        sediment_rows.loads("ci-outcome.v1", b"[")


def test_dumps_refuses_what_is_not_a_document():
    value = sediment_rows.loads("nemo-gym-rollout.v2", example_rows()[0])
    value["debug"] = 1
    with pytest.raises(sediment_rows.EncodeError) as caught:
        sediment_rows.dumps("nemo-gym-rollout.v2", value)
    assert (caught.value.errors[0].id, caught.value.errors[0].pointer) == ("rows.decode.unknown_key", "")
    del value["debug"]
    cases = [
        (float("nan"), "rows.encode.number"),
        (float("inf"), "rows.encode.number"),
        ({1, 2}, "rows.encode.type"),
        (b"x", "rows.encode.type"),
        ("\ud800", "rows.encode.utf8"),
    ]
    for bad, error_id in cases:
        value["response"]["turns"][0]["tool_calls"][0]["arguments"] = {"x": [0, bad]}
        with pytest.raises(sediment_rows.EncodeError) as caught:
            sediment_rows.dumps("nemo-gym-rollout.v2", value)
        assert (caught.value.errors[0].id, caught.value.errors[0].pointer) == (error_id, "/response/turns/0/tool_calls/0/arguments/x/1")
    value["response"]["turns"][0]["tool_calls"][0]["arguments"] = {1: "x"}
    with pytest.raises(sediment_rows.EncodeError) as caught:
        sediment_rows.dumps("nemo-gym-rollout.v2", value)
    assert caught.value.errors[0].id == "rows.encode.type"
    with pytest.raises(ValueError, match="style"):
        sediment_rows.dumps("nemo-gym-rollout.v2", {}, style="pretty")
