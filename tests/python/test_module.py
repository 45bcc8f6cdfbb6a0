"""The Python module against the library's own verdicts (run by ctest with the build tree importable)."""
import json
import os
import threading

import pytest

import sediment_rows

ROW_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rows.jsonl")


def mixed_rows():  # rows of versions 2, 3 and 4
    with open(os.path.join(os.path.dirname(ROW_PATH), "mixed-versions.jsonl"), "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def example_rows():
    with open(ROW_PATH, "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def test_version_and_schemas():
    assert sediment_rows.__version__.count(".") == 2
    names = sediment_rows.schemas()
    assert names[0] == "any"
    # by family, the name without a version just before its versions ("sft-sample", "sft-sample.v1", ...)
    assert names[1:] == sorted(names[1:], key=lambda n: (n.rsplit(".v", 1)[0], n))
    assert {"atif-v1.7", "atif", "nemo-gym-rollout", "nemo-gym-rollout.v4", "ci-outcome.v3", "sft-sample",
            "dpo-pair.v4"} <= set(names)
    assert len(names) == len(set(names))
    for name in names:  # every name listed is one validate() takes
        assert isinstance(sediment_rows.validate(b"{}", name), list), name


def test_schema_text_is_the_bundled_file():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "schemas")
    bundled = sorted(f[:-len(".schema.json")] for f in os.listdir(root) if f.endswith(".schema.json"))
    names = sediment_rows.schemas()
    families = {n for n in names if n == "any" or any(m.startswith(n + ".v") for m in names)}  # names without a version
    assert bundled == sorted(set(names) - families)
    for name in bundled:
        with open(os.path.join(root, name + ".schema.json"), "rb") as f:
            assert sediment_rows.schema_text(name) == f.read()
    with pytest.raises(ValueError, match="unknown schema 'nope'"):
        sediment_rows.schema_text("nope")


def test_schema_text_of_a_name_for_several_versions_embeds_each_and_suggests_on_a_typo():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "schemas")
    compound = json.loads(sediment_rows.schema_text("sft-sample"))
    assert compound["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert sorted(compound["$defs"]) == ["sft-sample.v1", "sft-sample.v2", "sft-sample.v3"]
    for name, embedded in compound["$defs"].items():
        with open(os.path.join(root, name + ".schema.json"), "rb") as f:
            assert embedded == json.loads(f.read())
    assert [ref["$ref"] for ref in compound["anyOf"]] == [compound["$defs"][n]["$id"] for n in sorted(compound["$defs"])]
    every = json.loads(sediment_rows.schema_text("any"))
    assert {"nemo-gym-rollout.v1", "nemo-gym-rollout.v4", "sft-sample.v3", "swe-bench-task.v1"} <= set(every["$defs"])
    for name, embedded in every["$defs"].items():
        assert json.loads(sediment_rows.schema_text(name)) == embedded
    with pytest.raises(ValueError, match=r"unknown schema 'sft-sampel'; did you mean 'sft-sample'\?"):
        sediment_rows.schema_text("sft-sampel")


def test_a_compound_schema_accepts_what_validate_accepts(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    with open(os.path.join(os.path.dirname(ROW_PATH), "families.jsonl"), "rb") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for name, row in (("sft-sample", rows[0]), ("dpo-pair", rows[1])):
        schema = json.loads(sediment_rows.schema_text(name))
        checker = jsonschema.Draft202012Validator(schema)
        wrong = json.loads(json.dumps(row))
        wrong["metadata"]["schema_id"] = "no-such-version"
        extra = dict(row, unknown_field=1)
        for value, valid in ((row, True), (wrong, False), (extra, False)):
            assert checker.is_valid(value) is valid, (name, value)
            assert (sediment_rows.validate(json.dumps(value), name, engine="schema") == []) is valid, name
            assert (sediment_rows.validate(json.dumps(value), name) == []) is valid, name


def test_validate_valid_rows_bytes_and_str():
    for line in example_rows():
        assert sediment_rows.validate(line, "nemo-gym-rollout.v4") == []
        assert sediment_rows.validate(line.decode(), "nemo-gym-rollout.v4") == []
        assert sediment_rows.validate(line, "nemo-gym-rollout.v4", engine="schema") == []
        assert sediment_rows.validate(line, "nemo-gym-rollout") == []


def test_validate_errors_have_pointer_message_and_id():
    line = example_rows()[0]
    bad = line[:-1] + b', "debug": 1}'
    for engine in ("typed", "schema"):
        errors = sediment_rows.validate(bad, "nemo-gym-rollout.v4", engine=engine)
        assert errors, engine
        assert all(isinstance(e, sediment_rows.Error) for e in errors)
    typed = sediment_rows.validate(bad, "nemo-gym-rollout.v4")
    assert (typed[0].id, typed[0].pointer, typed[0].message) == ("rows.decode.unknown_key", "", "unknown key 'debug'")
    assert "unknown key 'debug'" in str(typed[0]) and "Error(id='rows.decode.unknown_key'" in repr(typed[0])
    not_json = sediment_rows.validate(b"{", "ci-outcome.v1")
    assert not_json[0].id.startswith("rows.parse.")


def test_validate_arguments():
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.validate(b"{}", "nemo-gym-rollout.v9")
    with pytest.raises(ValueError, match="engine"):
        sediment_rows.validate(b"{}", "ci-outcome.v1", engine="fast")
    with pytest.raises(TypeError, match="bytes or str"):
        sediment_rows.validate(3, "ci-outcome.v1")


def test_threads_give_the_same_verdicts():
    lines = example_rows() * 50 + [example_rows()[0][:-1] + b', "x": 1}'] * 50
    expected = [sediment_rows.validate(l, "nemo-gym-rollout.v4") for l in lines]
    results = [None] * 4

    def work(k):
        results[k] = [sediment_rows.validate(l, "nemo-gym-rollout.v4") for l in lines]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results)


def test_decode_error_lists_errors():
    errors = sediment_rows.validate(b"{", "ci-outcome.v1")
    e = sediment_rows.DecodeError(errors)
    assert e.errors == errors and isinstance(e, ValueError)


def test_loads_and_dumps_give_back_sediments_bytes():
    for line in example_rows():
        value = sediment_rows.loads(line, "nemo-gym-rollout.v4")
        assert isinstance(value, dict) and list(value)[0] == "responses_create_params"
        assert sediment_rows.dumps(value, "nemo-gym-rollout.v4", style="sediment") == line
        assert sediment_rows.loads(line.decode(), "nemo-gym-rollout") == value
        assert sediment_rows.loads(sediment_rows.dumps(value, "nemo-gym-rollout.v4"), "nemo-gym-rollout.v4") == value


def test_loads_values_are_plain_python_and_exact():
    import json
    line = example_rows()[0]
    value = sediment_rows.loads(line, "nemo-gym-rollout.v4")
    assert value == json.loads(line)  # the same values as Python's own reader
    content = value["responses_create_params"]["input"][1]["parts"][0]["content"]
    assert content.endswith("\u00e9\U0001F600")  # escapes decoded, a surrogate pair as one character
    controls = {"schema_version": "ATIF-v1.7", "agent": {"name": "\u0001\u001f\t\"\\/\u00e9\U0001F600", "version": "1"},
                "steps": [{"step_id": 1, "source": "user", "message": "\b\f\n\r"}]}
    assert sediment_rows.loads(json.dumps(controls), "atif-v1.7") == controls  # control characters escaped, then read back
    # integers of any size, decimals as floats, null as None, absent keys absent (ATIF)
    trajectory = {"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1", "extra": {"z": None, "a": 1.5}},
                  "steps": [{"step_id": 1, "source": "agent", "message": "",
                             "metrics": {"prompt_tokens": 2 ** 70, "cost_usd": 0.1, "completion_tokens": 3}}]}
    text = json.dumps(trajectory)
    back = sediment_rows.loads(text, "atif-v1.7")
    assert back["steps"][0]["metrics"]["prompt_tokens"] == 2 ** 70
    assert type(back["steps"][0]["metrics"]["cost_usd"]) is float
    assert list(back["steps"][0]["metrics"]) == ["prompt_tokens", "completion_tokens", "cost_usd"]  # the schema's order
    assert list(back["agent"]["extra"]) == ["z", "a"]  # a free-form object keeps its own
    assert back["agent"]["extra"]["z"] is None and "model_name" not in back["agent"]
    assert sediment_rows.dumps(back, "atif-v1.7") == sediment_rows.dumps(trajectory, "atif-v1.7")


def shape(value):
    """A value's dicts as lists of (key, shape) pairs in their order, and every number with its type."""
    if isinstance(value, dict):
        return [(k, shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


def test_loads_equals_json_loads_and_read_key_for_key():
    # rows written in the schema's key order are built from the parse itself: the same values, types and
    # key order as json.loads, and as read() (which builds them from the compact text of the typed models)
    rows = example_rows() + mixed_rows()
    read_back = [value for _, value, _, _ in sediment_rows.read(ROW_PATH)]
    for i, row in enumerate(rows):
        value = sediment_rows.loads(row)
        assert shape(value) == shape(json.loads(row))
        if i < len(read_back):
            assert shape(value) == shape(read_back[i])
    # numbers of every kind, escapes and strings that look like the parser's markers, in a free-form value
    extra = {"big": 2 ** 70, "small": -2 ** 70, "u64": 2 ** 64 - 1, "i64": -2 ** 63, "zero": 0, "minus_zero_float": -0.0,
             "tiny": 5e-324, "huge": 1.7976931348623157e308, "ten": 10.0, "marker": "\u0000" + "0" * 13, "nul": "\u0000",
             "text": "\u00e9\U0001F600 \"\\/\n", "keys": {"\u00e9": [1, 2.5, None, True, False, {}, []]}}
    trajectory = {"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1", "extra": extra},
                  "steps": [{"step_id": 1, "source": "user", "message": "hi"}]}
    for text in (json.dumps(trajectory), json.dumps(trajectory, ensure_ascii=False)):
        assert shape(sediment_rows.loads(text, "atif-v1.7")) == shape(json.loads(text))
    literals = '{"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1", "extra": ' \
               '{"a": -0, "b": 1E2, "c": 5E-324, "d": 123456789012345678901234567890, "e": 0.1}}, ' \
               '"steps": [{"step_id": 1, "source": "user", "message": ""}]}'
    assert shape(sediment_rows.loads(literals, "atif-v1.7")) == shape(json.loads(literals))
    # the same rows again: a key made once and kept is the same str
    first, again = sediment_rows.loads(rows[0]), sediment_rows.loads(rows[0])
    assert [k for k in first] == [k for k in again] and all(a is b for a, b in zip(first, again))


def test_loads_and_read_leave_the_collector_as_they_found_it():
    import gc
    row = example_rows()[0]
    assert gc.isenabled()
    sediment_rows.loads(row)
    reordered = json.dumps(dict(reversed(list(json.loads(row).items()))))  # the compact text's path
    assert list(sediment_rows.loads(reordered)) == list(sediment_rows.loads(row))  # in the schema's order
    list(sediment_rows.read(ROW_PATH))
    assert gc.isenabled()  # the collector runs again after the values are made
    gc.disable()
    try:
        sediment_rows.loads(row)
        assert not gc.isenabled()  # and stays off where the caller turned it off
    finally:
        gc.enable()


def test_loads_refuses_with_every_error():
    line = example_rows()[0]
    with pytest.raises(sediment_rows.DecodeError) as caught:
        sediment_rows.loads(line[:-1] + b', "debug": 1, "x": 2}', "nemo-gym-rollout.v4")
    assert [(e.id, e.pointer) for e in caught.value.errors] == [("rows.decode.unknown_key", ""), ("rows.decode.unknown_key", "")]
    with pytest.raises(sediment_rows.DecodeError):
        sediment_rows.loads(b"[", "ci-outcome.v1")


def test_dumps_writes_what_the_cli_format_writes_whatever_the_values_order_and_number_types():
    """dumps() gives back the text it wrote when the fast path takes it as it is; anything else (keys out
    of the schema's order, 3.0 for an integer) goes through format(). Both must equal `sediment-rows
    format` on the same value's JSON."""
    import subprocess
    values = [(sediment_rows.loads(l, "nemo-gym-rollout.v4"), "nemo-gym-rollout.v4") for l in example_rows()]
    values += [(sediment_rows.loads(l), "nemo-gym-rollout") for l in mixed_rows()]
    base = sediment_rows.loads(example_rows()[0], "nemo-gym-rollout.v4")
    reordered = dict(reversed(list(base.items())))
    reordered["metadata"] = dict(reversed(list(base["metadata"].items())))
    values.append((reordered, "nemo-gym-rollout.v4"))
    for change in ({"segment_index": 3.0}, {"segment_index": 2**40}):
        changed = json.loads(json.dumps(base))
        changed["metadata"].update(change)
        values.append((changed, "nemo-gym-rollout.v4"))
    for reward in (1, 1.0, -0.0, 0.1, 1e300, 5e-324):
        changed = json.loads(json.dumps(base))
        changed["reward"] = reward
        values.append((changed, "nemo-gym-rollout.v4"))
    changed = json.loads(json.dumps(base))
    changed["response"]["turns"][0]["tool_calls"][0]["arguments"] = {"z": 2**70, "a": [-2**70, 2**64 - 1, -2**63, 1.5, "\u00e9\x7f"]}
    values.append((changed, "nemo-gym-rollout.v4"))
    examples = os.path.dirname(ROW_PATH)
    with open(os.path.join(examples, "trajectory.json"), "rb") as f:
        trajectory = f.read()
    values += [(sediment_rows.loads(trajectory, name), name) for name in ("atif", "atif-v1.7")]
    with open(os.path.join(examples, "families.jsonl"), "rb") as f:
        for line in filter(None, (l.strip() for l in f)):
            name = next(n for n in sediment_rows.schemas() if ".v" in n and not sediment_rows.validate(line, n))
            values.append((sediment_rows.loads(line, name), name))
    for style in ("compact", "sediment"):
        written = [sediment_rows.dumps(v, schema, style) for v, schema in values]
        for (value, schema), got in zip(values, written):
            cli = subprocess.run([os.environ["SEDIMENT_ROWS_CLI"], "format", "--schema", schema, "--style", style, "--document", "-"],
                                 input=json.dumps(value).encode(), capture_output=True, check=True)
            assert got + b"\n" == cli.stdout, (style, schema)
    three = json.loads(json.dumps(base))
    three["metadata"]["segment_index"] = 3.0
    assert b'"segment_index":3,' in sediment_rows.dumps(three, "nemo-gym-rollout.v4")  # 3.0 reads as 3
    assert sediment_rows.dumps(reordered, "nemo-gym-rollout.v4") == sediment_rows.dumps(base, "nemo-gym-rollout.v4")


def test_dumps_refuses_what_is_not_a_document():
    value = sediment_rows.loads(example_rows()[0], "nemo-gym-rollout.v4")
    value["debug"] = 1
    with pytest.raises(sediment_rows.EncodeError) as caught:
        sediment_rows.dumps(value, "nemo-gym-rollout.v4")
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
            sediment_rows.dumps(value, "nemo-gym-rollout.v4")
        assert (caught.value.errors[0].id, caught.value.errors[0].pointer) == (error_id, "/response/turns/0/tool_calls/0/arguments/x/1")
    value["response"]["turns"][0]["tool_calls"][0]["arguments"] = {1: "x"}
    with pytest.raises(sediment_rows.EncodeError) as caught:
        sediment_rows.dumps(value, "nemo-gym-rollout.v4")
    assert caught.value.errors[0].id == "rows.encode.type"
    with pytest.raises(ValueError, match="style"):
        sediment_rows.dumps({}, "nemo-gym-rollout.v4", style="pretty")


# ----- files: read() and validate_file() -----------------------------------------------------------

def write_rows(path, lines, compress=False):
    import gzip
    data = b"".join(l + b"\n" for l in lines)
    with (gzip.open if compress else open)(path, "wb") as f:
        f.write(data)
    return str(path)


def mixed_lines():
    """Valid rows, two invalid ones and blank lines: line numbers 1-8."""
    good = example_rows()
    bad_key = good[0][:-1] + b', "debug": 1}'
    bad_type = good[1].replace(b'"segment_index": ', b'"segment_index": "x", "_": ', 1)
    return [good[0], b"", bad_key, good[1], b"  \r", bad_type, good[2], b'{"truncated": ']


def test_read_yields_every_document_with_its_line_value_or_errors(tmp_path):
    lines = mixed_lines()
    for compress in (False, True):
        path = write_rows(tmp_path / ("rows.jsonl.gz" if compress else "rows.jsonl"), lines, compress)
        for jobs in (1, 2, None):
            docs = list(sediment_rows.read(path, "nemo-gym-rollout.v4", jobs=jobs))
            assert [d.line for d in docs] == [1, 3, 4, 6, 7, 8]
            for d in docs:
                expected = sediment_rows.validate(lines[d.line - 1], "nemo-gym-rollout.v4")
                assert d.errors == expected
                if expected:
                    assert d.value is None
                else:
                    assert d.value == sediment_rows.loads(lines[d.line - 1], "nemo-gym-rollout.v4")
            assert isinstance(docs[0], sediment_rows.Document) and docs[0].errors == []
            assert docs[1].errors[0].id == "rows.decode.unknown_key"
            assert docs[5].errors[0].id.startswith("rows.parse.")


def test_read_a_json_file_is_one_document(tmp_path):
    path = tmp_path / "trajectory.json"
    with open(os.path.join(os.path.dirname(ROW_PATH), "trajectory.json"), "rb") as f:
        path.write_bytes(f.read())
    docs = list(sediment_rows.read(path, "atif-v1.7"))
    assert len(docs) == 1 and docs[0].line == 1 and docs[0].errors == []
    assert docs[0].value["schema_version"] == "ATIF-v1.7"


def test_document_reads_any_file_as_one_document(tmp_path):
    row = json.loads(example_rows()[0])
    pretty = tmp_path / "row.txt"  # pretty-printed, and not named *.json
    pretty.write_text(json.dumps(row, indent=2))
    lines = sediment_rows.validate_file(pretty, "nemo-gym-rollout")
    assert lines.valid == 0 and lines.invalid > 100
    assert "read the file as one document with --document" in lines.errors[0].message and lines.errors[0].line == 1
    whole = sediment_rows.validate_file(pretty, "nemo-gym-rollout", document=True)
    assert (whole.valid, whole.invalid) == (1, 0)
    docs = list(sediment_rows.read(pretty, "nemo-gym-rollout", document=True))
    assert [(d.line, d.errors) for d in docs] == [(1, [])] and docs[0].value == row
    array = tmp_path / "rows.jsonl"  # a JSON array on a JSONL line
    array.write_bytes(b"[" + b", ".join(example_rows()) + b"]\n")
    hint = sediment_rows.validate_file(array, "nemo-gym-rollout").errors[0].message
    assert hint.startswith("expected an object, got an array (the line is a JSON array: JSONL holds one document per line")


def test_read_many_rows_in_order_and_stop_early(tmp_path):
    lines = example_rows() * 4000  # several batches of the engine
    path = write_rows(tmp_path / "many.jsonl", lines)
    count = 0
    for count, doc in enumerate(sediment_rows.read(path, "nemo-gym-rollout", jobs=2), 1):
        assert doc.line == count and doc.errors == []
    assert count == len(lines)
    docs = sediment_rows.read(path, "nemo-gym-rollout", jobs=2)
    assert next(docs).line == 1
    docs.close()  # the reading stops; nothing hangs
    for doc in sediment_rows.read(path, "nemo-gym-rollout", jobs=2):
        break


def test_read_and_validate_file_errors(tmp_path):
    import gzip
    with pytest.raises(FileNotFoundError):
        sediment_rows.read(tmp_path / "none.jsonl", "nemo-gym-rollout")
    with pytest.raises(FileNotFoundError):
        sediment_rows.validate_file(tmp_path / "none.jsonl", "nemo-gym-rollout")
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.read(ROW_PATH, "nemo-gym-rollout.v9")
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="jobs"):
            sediment_rows.validate_file(ROW_PATH, "nemo-gym-rollout", jobs=bad)
    with pytest.raises(ValueError, match="max_errors"):
        sediment_rows.validate_file(ROW_PATH, "nemo-gym-rollout", max_errors=-1)
    # a gzip file cut short: the rows before the cut, then OSError
    data = gzip.compress(b"".join(l + b"\n" for l in example_rows() * 200))
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) // 2])
    docs = []
    with pytest.raises(OSError, match="ends early"):
        for doc in sediment_rows.read(cut, "nemo-gym-rollout", jobs=1):
            docs.append(doc)
    assert docs and all(d.errors == [] for d in docs) and [d.line for d in docs] == list(range(1, len(docs) + 1))
    with pytest.raises(OSError, match="ends early"):
        sediment_rows.validate_file(cut, "nemo-gym-rollout")


def test_validate_file_counts_and_errors_with_lines(tmp_path):
    lines = mixed_lines()
    path = write_rows(tmp_path / "rows.jsonl", lines)
    expected = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            expected += [sediment_rows.FileError(path, number, e.pointer, e.message, e.id)
                         for e in sediment_rows.validate(line, "nemo-gym-rollout.v4")]
    for jobs in (1, 2):
        result = sediment_rows.validate_file(path, "nemo-gym-rollout.v4", jobs=jobs)
        assert (result.valid, result.invalid, result.ok) == (3, 3, False)
        assert result.errors == expected
        assert [e.line for e in result.errors][:2] == [3, 6]
    capped = sediment_rows.validate_file(path, "nemo-gym-rollout.v4", max_errors=1)
    assert (capped.valid, capped.invalid, capped.errors) == (3, 3, expected[:1])
    assert sediment_rows.validate_file(ROW_PATH, "nemo-gym-rollout") == sediment_rows.Validation(3, 0, [])


# ----- conversions ---------------------------------------------------------------------------------

def test_convert_rows_to_atif_and_back_byte_for_byte():
    for line in example_rows():
        atif = sediment_rows.convert(line, "nemo-gym-rollout.v4", "atif-v1.7")
        assert isinstance(atif, sediment_rows.Converted) and atif.losses == []
        assert sediment_rows.validate(atif.data, "atif-v1.7") == []
        back = sediment_rows.convert(atif.data, "atif-v1.7", "nemo-gym-rollout.v4", style="sediment")
        assert back == (line, [])
        assert sediment_rows.convert(atif.data.decode(), "atif", "nemo-gym-rollout", style="sediment").data == line
        response = sediment_rows.convert(atif.data, "atif-v1.7", "nemo-gym-response.v2").data
        assert sediment_rows.loads(response, "nemo-gym-response.v2") == sediment_rows.loads(line, "nemo-gym-rollout.v4")["response"]


def test_convert_errors_losses_and_metadata():
    import json
    line = example_rows()[0]
    trajectory = json.loads(sediment_rows.convert(line, "nemo-gym-rollout.v4", "atif-v1.7").data)
    row = json.loads(line)
    metadata = json.dumps({"metadata": row["metadata"], "reward": row["reward"]})
    del trajectory["extra"]  # no row metadata in the trajectory: it must be given
    bare = json.dumps(trajectory)
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.convert(bare, "atif-v1.7", "nemo-gym-rollout")
    assert caught.value.errors[0].pointer == "" and not caught.value.in_metadata
    assert sediment_rows.convert(bare, "atif-v1.7", "nemo-gym-rollout", metadata=metadata).data == \
        sediment_rows.dumps(sediment_rows.loads(line, "nemo-gym-rollout.v4"), "nemo-gym-rollout.v4")
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.convert(bare, "atif-v1.7", "nemo-gym-rollout", metadata='{"metadata": {}}')
    assert caught.value.in_metadata and caught.value.errors[0].id == "rows.decode.missing_key"
    # a value no row holds: refused in strict mode, dropped and listed in lossy mode
    assert [s["source"] for s in trajectory["steps"]] == ["system", "user", "agent", "agent"]
    trajectory["steps"][2]["metrics"] = {"prompt_tokens": 5}
    lossy_source = json.dumps(trajectory)
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.convert(lossy_source, "atif-v1.7", "nemo-gym-response.v2")
    pointers = [e.pointer for e in caught.value.errors]
    assert "/session_id" in pointers and any(p.startswith("/steps/2/metrics") for p in pointers)
    lossy = sediment_rows.convert(lossy_source, "atif-v1.7", "nemo-gym-response.v2", lossy=True)
    assert [e.pointer for e in lossy.losses] == [e.pointer for e in caught.value.errors]
    assert all(e.id.startswith("rows.convert.loss.") for e in lossy.losses)
    # counted by kind, as the CLI's summary counts them
    kinds = [e.id[len("rows.convert.loss."):] for e in lossy.losses]
    assert lossy.dropped == {k: kinds.count(k) for k in kinds} and sum(lossy.dropped.values()) == len(kinds) == 3
    # an invalid source: its decoding errors, at their places
    trajectory["steps"][0]["step_id"] = 7
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.convert(json.dumps(trajectory), "atif-v1.7", "nemo-gym-response.v2")
    assert caught.value.errors[0].pointer == "/steps/0/step_id"
    with pytest.raises(ValueError, match="convert goes from atif"):
        sediment_rows.convert(bare, "atif-v1.7", "ci-outcome.v1")
    with pytest.raises(ValueError, match="metadata goes with"):
        sediment_rows.convert(bare, "atif-v1.7", "nemo-gym-response.v2", metadata=metadata)
    with pytest.raises(ValueError, match=r"unknown schema .atif-v9.; did you mean .atif.\?"):
        sediment_rows.convert(bare, "atif-v9", "nemo-gym-response.v2")


def test_upgrade_rows_and_harbor_trajectories():
    import json
    line = mixed_rows()[0]  # a v2 row with a ci_resolution, whose v3 fields no v2 row holds
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.upgrade(line, "nemo-gym-rollout.v2", "nemo-gym-rollout.v3")
    assert [(e.id, e.pointer) for e in caught.value.errors] == \
        [("rows.upgrade.underivable", "/metadata/session_commit_observation_ids")]
    up = sediment_rows.upgrade(line, "nemo-gym-rollout", "nemo-gym-rollout.v3", lossy=True)
    assert [(e.id, e.pointer) for e in up.losses] == \
        [("rows.upgrade.loss", "/reward"), ("rows.upgrade.loss", "/metadata/reward_source"), ("rows.upgrade.loss", "/metadata/ci_resolution")]
    assert up.dropped == {"reward": 1, "reward_source": 1, "ci_resolution": 1}
    assert sediment_rows.upgrade(line, "nemo-gym-rollout.v2", "nemo-gym-rollout.v2").dropped == {}
    value = sediment_rows.loads(up.data, "nemo-gym-rollout.v3")
    assert value["metadata"]["schema_id"].endswith("/v3.json") and "reward" not in value
    assert value["metadata"]["session_commit_observation_ids"] == []
    assert sediment_rows.upgrade(line, "nemo-gym-rollout.v2", "nemo-gym-rollout.v3", lossy=True, style="sediment").data == \
        sediment_rows.dumps(value, "nemo-gym-rollout.v3", style="sediment")
    harbor = {"schema_version": "ATIF-v1.2", "session_id": "s", "agent": {"name": "a", "version": "1"},
              "steps": [{"step_id": 1, "source": "user", "message": "hi"}]}
    up = sediment_rows.upgrade(json.dumps(harbor), "atif", "atif-v1.7")
    assert json.loads(up.data)["schema_version"] == "ATIF-v1.7" and up.losses == []
    harbor["steps"][0]["step_id"] = 3
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.upgrade(json.dumps(harbor), "atif", "atif-v1.7")
    assert caught.value.errors[0].pointer == "/steps/0/step_id"
    # ATIF-v1.8: an audio part has no v1.7 form; lossy drops it, and convert from "atif" the same
    audio = {"type": "audio", "source": {"media_type": "audio/x-m4a", "path": "a.m4a", "duration_sec": 0}}
    v18 = {"schema_version": "ATIF-v1.8", "agent": {"name": "a", "version": "1"},
           "steps": [{"step_id": 1, "source": "user", "message": [{"type": "text", "text": "hi"}, audio]}]}
    assert sediment_rows.validate(json.dumps(v18), "atif") == []
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.upgrade(json.dumps(v18), "atif", "atif-v1.7")
    assert [(e.id, e.pointer) for e in caught.value.errors] == [("rows.convert.loss.audio", "/steps/0/message/1")]
    up = sediment_rows.upgrade(json.dumps(v18), "atif", "atif-v1.7", lossy=True)
    assert up.dropped == {"audio": 1} and json.loads(up.data)["steps"][0]["message"] == [{"type": "text", "text": "hi"}]
    with pytest.raises(sediment_rows.ConvertError):
        sediment_rows.convert(json.dumps(v18), "atif", "nemo-gym-response.v2")
    converted = sediment_rows.convert(json.dumps(v18), "atif", "nemo-gym-response.v2", lossy=True)
    assert [e.pointer for e in converted.losses][0] == "/steps/0/message/1" and converted.dropped["audio"] == 1
    with pytest.raises(ValueError):
        sediment_rows.upgrade(example_rows()[0], "nemo-gym-rollout.v3", "nemo-gym-rollout.v4")
    with pytest.raises(ValueError):
        sediment_rows.upgrade(example_rows()[0], "nemo-gym-rollout.v4", "nemo-gym-rollout")


def test_errors_pickle_and_threads_reading_files_agree(tmp_path):
    import pickle
    e = sediment_rows.validate(b"{", "ci-outcome.v1")[0]
    assert pickle.loads(pickle.dumps(e)) == e
    path = write_rows(tmp_path / "rows.jsonl", mixed_lines() * 300)
    expected = sediment_rows.validate_file(path, "nemo-gym-rollout.v4", jobs=1)
    expected_docs = list(sediment_rows.read(path, "nemo-gym-rollout.v4", jobs=1))
    results = [None] * 6

    def work(k):
        if k % 2:
            results[k] = sediment_rows.validate_file(path, "nemo-gym-rollout.v4", jobs=2) == expected
        else:
            results[k] = list(sediment_rows.read(path, "nemo-gym-rollout.v4", jobs=2)) == expected_docs

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 6


def test_read_holds_a_bounded_amount_of_a_big_file(tmp_path):
    """A 120 MB file read to its end in a process of its own: resident memory stays below the file's size
    (the read-ahead is bounded in documents and bytes, and values are made a few documents at a time)."""
    import subprocess
    import sys
    lines = example_rows()
    path = tmp_path / "big.jsonl"
    block = b"".join(l + b"\n" for l in lines) * 1000
    with open(path, "wb") as f:
        while f.tell() < 120_000_000:
            f.write(block)
    # VmHWM, not ru_maxrss: the latter keeps the parent's peak across fork and exec
    script = ("import sys, sediment_rows\n"
              "n = sum(1 for d in sediment_rows.read(sys.argv[1], 'nemo-gym-rollout', jobs=2) if not d.errors)\n"
              "peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]\n"
              "print(n, int(peak) // 1024)\n")
    run = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    count, peak_mb = map(int, run.stdout.split())
    assert count == os.path.getsize(path) // len(block) * len(lines) * 1000
    assert peak_mb < 120, f"peak resident {peak_mb} MB for a 120 MB file"  # 76 MB here; 427 MB before the bound


def test_lint_a_row_and_rows_across():
    rows = example_rows()
    assert all(sediment_rows.lint(row, "nemo-gym-rollout") == [] for row in rows)
    tampered = rows[0].replace(b'"reward": 1.0', b'"reward": 0.0')
    assert tampered != rows[0]
    [finding] = sediment_rows.lint(tampered, "nemo-gym-rollout.v4")
    assert (finding.id, finding.pointer) == ("rows.lint.reward", "/reward")
    assert finding.message == 'expected 1.0 for verdict "passed", got 0.0'
    # a row that is not schema-valid gets its schema errors, and no lint
    [error] = sediment_rows.lint(b'{"reward": 1.0}', "nemo-gym-rollout")
    assert error.id.startswith("rows.decode.")
    with pytest.raises(ValueError, match="eval fraction"):
        sediment_rows.lint(rows[0], "nemo-gym-rollout", eval_fraction=0.6)
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.lint(rows[0], "nope")
    # across rows: the same row twice repeats its segment; sess_c of the examples starts at segment 1
    linter = sediment_rows.Linter(sessions_complete=True)
    assert [linter.add(row) for row in rows] == [[], [], []]
    [again] = linter.add(rows[0])
    assert again.id == "rows.lint.session.segment_index"
    [(line, incomplete)] = linter.finish()
    assert line == 2 and incomplete.id == "rows.lint.session.incomplete"


def test_every_call_takes_the_data_first_and_says_so_when_swapped(tmp_path):
    line = example_rows()[0]
    # the schema defaults to the rollout rows of every version, each read as the version it names
    assert sediment_rows.validate(line) == [] and sediment_rows.lint(line) == []
    assert sediment_rows.loads(line) == sediment_rows.loads(line, "nemo-gym-rollout.v4")
    assert sediment_rows.dumps(sediment_rows.loads(line), style="sediment") == line
    path = tmp_path / "rows.jsonl"
    path.write_bytes(line + b"\n")
    assert sediment_rows.validate_file(path).valid == 1 and [d.line for d in sediment_rows.read(path)] == [1]
    # the order of 0.1 (schema first) gets a TypeError naming the order, not a parse or file error
    swapped = [
        lambda: sediment_rows.validate("nemo-gym-rollout", line.decode()),
        lambda: sediment_rows.lint("nemo-gym-rollout.v4", line.decode()),
        lambda: sediment_rows.loads("nemo-gym-rollout", line.decode()),
        lambda: sediment_rows.dumps("nemo-gym-rollout", sediment_rows.loads(line)),
        lambda: sediment_rows.validate_file("nemo-gym-rollout", str(path)),
        lambda: sediment_rows.read("nemo-gym-rollout", str(path)),
        lambda: sediment_rows.convert("nemo-gym-rollout", "atif-v1.7", line.decode()),
        lambda: sediment_rows.upgrade("nemo-gym-rollout", "nemo-gym-rollout.v4", line.decode()),
    ]
    for call in swapped:
        with pytest.raises(TypeError, match=r"the arguments are \(data, schema\): 'nemo-gym-rollout(\.v4)?' is a schema's name"):
            call()


def test_one_exception_base_for_every_error_list():
    assert issubclass(sediment_rows.DecodeError, sediment_rows.DocumentError)
    assert issubclass(sediment_rows.EncodeError, sediment_rows.DocumentError)
    assert issubclass(sediment_rows.ConvertError, sediment_rows.DocumentError)
    for call in (lambda: sediment_rows.loads(b"{}"), lambda: sediment_rows.dumps({"x": 1}),
                 lambda: sediment_rows.convert(b"{}", "nemo-gym-rollout", "atif-v1.7")):
        with pytest.raises(sediment_rows.DocumentError) as caught:
            call()
        assert caught.value.errors and all(isinstance(e, sediment_rows.Error) for e in caught.value.errors)


SFT_V3 = {
    "prompt": [{"role": "user", "content": "Inspect the file."},
               {"role": "assistant", "tool_calls": [{"id": "t1", "type": "function",
                                                      "function": {"name": "Read", "arguments": {"path": "app.py"}}}]},
               {"role": "tool", "name": "Read", "tool_call_id": "t1", "content": "def run(): ..."}],
    "completion": [{"role": "assistant", "thinking": "Keep the signature.", "content": "Implemented."}],
    "tools": [],
    "metadata": {"org_id": "acme", "source_model": "m", "completion_id": "call-1", "recipe_id": "sft_curated",
                 "recipe_version": 1, "eligibility_source": "explicit_accept", "label_confidence": 0.9,
                 "ci_reliability": 1.0, "provenance": {"policy_version": "5", "quarantine_revision": 0, "policy_digest": None},
                 "split": "train", "repository_identity": None, "attribution_source": "jaccard",
                 "session_commit_observation_ids": [],
                 "schema_id": "https://sediment.so/schemas/training-rows/sft-sample/v3.json", "schema_version": 3},
}


def test_families_by_name_without_a_version_and_any():
    text = json.dumps(SFT_V3)
    assert sediment_rows.validate(text, "sft-sample") == []
    assert sediment_rows.validate(text, "any") == []
    value = sediment_rows.loads(text, "sft-sample")
    assert value == SFT_V3 and list(value["completion"][0]) == ["role", "thinking", "content"]  # the shape's own order
    assert sediment_rows.dumps(value, "sft-sample.v3", style="sediment") == text.encode()
    bad = dict(SFT_V3, tools=[{"type": "function"}])
    [error] = sediment_rows.validate(json.dumps(bad), "sft-sample")
    assert (error.pointer, error.id) == ("/tools/0", "rows.decode.no_items")
    with pytest.raises(sediment_rows.DocumentError):
        sediment_rows.upgrade(json.dumps(dict(SFT_V3, metadata=dict(SFT_V3["metadata"], schema_version=2,
            schema_id="https://sediment.so/schemas/training-rows/sft-sample/v2.json"))), "sft-sample", "sft-sample.v3")


def test_a_strict_conversion_or_upgrade_lists_all_that_lossy_would_drop():
    with open(os.path.join(os.path.dirname(ROW_PATH), "trajectory.json"), "rb") as f:
        trajectory = json.loads(f.read())
    trajectory["schema_version"] = "ATIF-v1.8"  # with an audio part: the first loss, but not the only one
    step = next(s for s in trajectory["steps"] if s["source"] == "user")
    step["message"] = [{"type": "text", "text": "listen"},
                       {"type": "audio", "source": {"media_type": "audio/wav", "path": "a.wav"}}]
    cases = [(json.dumps(trajectory), "atif", "nemo-gym-response.v3", sediment_rows.convert)]
    cases += [(line, "nemo-gym-rollout", "nemo-gym-rollout.v4", sediment_rows.upgrade) for line in mixed_rows()[:1]]
    for data, source, target, call in cases:
        lossy = call(data, source, target, lossy=True)
        assert lossy.losses, target
        assert "audio" in lossy.dropped or target.startswith("nemo-gym-rollout"), lossy.dropped
        with pytest.raises(sediment_rows.ConvertError) as strict:
            call(data, source, target)
        assert strict.value.would_drop == lossy.losses, target
        assert strict.value.would_drop_kinds == lossy.dropped, target
    assert sediment_rows.ConvertError([]).would_drop == []
    with pytest.raises(sediment_rows.ConvertError) as invalid:  # an invalid document: nothing lossy would drop
        sediment_rows.upgrade(b'{"metadata": {}}', "nemo-gym-rollout.v2", "nemo-gym-rollout.v4")
    assert invalid.value.errors and invalid.value.would_drop == []


def test_lossy_is_refused_where_an_upgrade_has_nothing_to_drop():
    with open(os.path.join(os.path.dirname(ROW_PATH), "families.jsonl"), "rb") as f:
        pair = [line for line in f if line.strip()][1]
    with pytest.raises(ValueError, match=r"^lossy mode has nothing to drop in an upgrade to dpo-pair\.v4: "):
        sediment_rows.upgrade(pair, "dpo-pair", "dpo-pair.v4", lossy=True)
    assert sediment_rows.upgrade(pair, "dpo-pair", "dpo-pair.v4").losses == []
