"""Invalid UTF-8 anywhere in the input gets a verdict, never an exception, through every Python call and
sediment_rows.dask; every message is valid UTF-8, the bad bytes shown as \\xNN. And a Dask task that
fails, for any reason, fails the job at once with its error."""
import gzip
import json
import os
import subprocess
import time

import pytest

import sediment_rows
import sediment_rows.dask

ROW_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rows.jsonl")
SCHEMA = "nemo-gym-rollout"


def good_rows():
    with open(ROW_PATH, "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def bad_rows():
    """(place, document, pointer of its error, how its message shows the bytes)"""
    row = good_rows()[0]
    return [
        ("a string", row.replace(b'"sess_b"', b'"s\xcfss_b"', 1), "/metadata/session_id", "\\xcf"),
        ("a key", row.replace(b'"org_id": "org_a", "session_id"', b'"org\xcf_id": "org_a", "session_id"', 1), "/metadata", "\\xcf"),
        ("between tokens", row.replace(b', "split"', b', \xcf "split"', 1), "/metadata", "\\xcf"),
        ("at the end of the line", row + b"\xcf", "", "\\xcf"),
        ("a lone continuation byte", row.replace(b'"x"]', b'"\x80"]', 1), "/metadata/verifier_results/0/raw/a/2", "\\x80"),
        ("an encoded surrogate", row.replace(b'"sess_b"', b'"\xed\xa0\x80"', 1), "/metadata/session_id", "\\xed"),
        ("a byte alone", b"\xff", "", "\\xff"),
    ]


def cli():
    return os.environ["SEDIMENT_ROWS_CLI"]


def check_errors(errors, pointer, shown):
    assert errors and errors[0].id == "rows.parse.syntax"
    assert errors[0].pointer == pointer
    assert shown in errors[0].message
    for e in errors:
        e.message.encode("utf-8")  # no lone surrogate: every message is real text
        e.pointer.encode("utf-8")
        str(e), repr(e)


def test_the_inputs_differ_from_the_row():
    assert all(doc != good_rows()[0] for _, doc, _, _ in bad_rows())


@pytest.mark.parametrize("place,doc,pointer,shown", bad_rows(), ids=[b[0] for b in bad_rows()])
def test_every_call_answers(place, doc, pointer, shown):
    for engine in ("typed", "schema"):
        check_errors(sediment_rows.validate(doc, SCHEMA, engine=engine), pointer, shown)
    check_errors(sediment_rows.validate(doc, "nemo-gym-rollout.v4"), pointer, shown)
    # a str holding the bytes as surrogates (text read with errors="surrogateescape") gets the same verdict
    text = doc.decode("utf-8", "surrogateescape")
    assert sediment_rows.validate(text, SCHEMA) == sediment_rows.validate(doc, SCHEMA)
    with pytest.raises(sediment_rows.DecodeError) as caught:
        sediment_rows.loads(doc, SCHEMA)
    check_errors(caught.value.errors, pointer, shown)
    check_errors(sediment_rows.lint(doc, SCHEMA), pointer, shown)
    linter = sediment_rows.Linter()
    check_errors(linter.add(doc), pointer, shown)
    assert linter.add(good_rows()[0]) == []  # and the next row is linted as ever
    for convert in (lambda: sediment_rows.convert(doc, SCHEMA, "atif-v1.7"),
                    lambda: sediment_rows.upgrade(doc, SCHEMA, "nemo-gym-rollout.v4", lossy=True)):
        with pytest.raises(sediment_rows.ConvertError) as caught:
            convert()
        check_errors(caught.value.errors, pointer, shown)
        str(caught.value)


def test_a_trajectory_and_a_metadata_document_with_bad_bytes():
    atif = sediment_rows.convert(good_rows()[0], SCHEMA, "atif-v1.7").data
    bad = atif.replace(b'"sess_b"', b'"\xcf"', 1)
    assert bad != atif
    for source in ("atif", "atif-v1.7"):
        with pytest.raises(sediment_rows.ConvertError) as caught:
            sediment_rows.convert(bad, source, "nemo-gym-response.v3")
        assert caught.value.errors[0].id == "rows.parse.syntax" and "\\xcf" in caught.value.errors[0].message
    with pytest.raises(sediment_rows.ConvertError) as caught:
        sediment_rows.convert(atif, "atif-v1.7", "nemo-gym-rollout.v4", metadata=b'{"metadata": \xcf}')
    assert caught.value.in_metadata and "\\xcf" in caught.value.errors[0].message


def corpus_file(path, compress=False):
    """Good rows with every bad one between them; the 1-based lines of the bad ones."""
    good = good_rows()
    lines, bad_lines = [], []
    for _, doc, _, _ in bad_rows():
        lines.append(good[len(lines) % len(good)])
        lines.append(doc)
        bad_lines.append(len(lines))
    data = b"\n".join(lines) + b"\n"
    path.write_bytes(gzip.compress(data) if compress else data)
    return str(path), bad_lines


def cli_counts(paths):
    run = subprocess.run([cli(), "validate", "--schema", SCHEMA, "--format", "jsonl", *paths], capture_output=True)
    assert run.returncode == 1, run.stderr
    reports = [r for r in map(json.loads, run.stdout.decode("utf-8").splitlines()) if "summary" not in r]  # valid UTF-8, or this raises
    valid = sum(r["valid"] for r in reports)
    return valid, len(reports) - valid, [(r["file"], r["line"], e["pointer"], e["message"]) for r in reports for e in r["errors"]]


@pytest.mark.parametrize("compress", [False, True])
def test_read_and_validate_file_give_every_document_its_verdict(tmp_path, compress):
    path, bad_lines = corpus_file(tmp_path / ("rows.jsonl.gz" if compress else "rows.jsonl"), compress)
    for jobs in (1, 2):
        docs = list(sediment_rows.read(path, SCHEMA, jobs=jobs))
        assert [d.line for d in docs if d.errors] == bad_lines
        assert all(d.value is not None for d in docs if not d.errors) and len(docs) == 2 * len(bad_lines)
        for d, (_, _, pointer, shown) in zip([d for d in docs if d.errors], bad_rows()):
            check_errors(d.errors, pointer, shown)
        result = sediment_rows.validate_file(path, SCHEMA, jobs=jobs)
        valid, invalid, errors = cli_counts([path])
        assert (result.valid, result.invalid) == (valid, invalid) == (len(bad_lines), len(bad_lines))
        assert [(e.file, e.line, e.pointer, e.message) for e in result.errors] == errors


def test_a_file_name_that_is_not_utf8(tmp_path):
    name = os.fsencode(str(tmp_path)) + b"/bad\xcfname.jsonl"
    with open(name, "wb") as f:
        f.write(good_rows()[0] + b"\n")
    result = sediment_rows.validate_file(name, SCHEMA)
    assert (result.valid, result.invalid) == (1, 0)
    assert [d.errors for d in sediment_rows.read(name, SCHEMA)] == [[]]


def test_the_trainer_example_reports_a_bad_byte_and_goes_on(tmp_path):
    import sys
    path, bad_lines = corpus_file(tmp_path / "rows.jsonl")
    run = subprocess.run([sys.executable, os.path.join(os.path.dirname(ROW_PATH), "python", "trainer_loop.py"), path,
                          str(tmp_path / "kept.jsonl")], capture_output=True)
    assert run.returncode == 1
    assert b"Traceback" not in run.stderr
    assert run.stderr.decode("utf-8").count("invalid JSON") == len(bad_lines)
    assert f"; {len(bad_lines)} invalid" in run.stdout.decode()


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c, distributed.Client(c) as client:
        yield client


def dask_result(client, *args, **kwargs):
    """sediment_rows.dask.validate on the cluster, or its error; never waits more than a minute."""
    lazy = sediment_rows.dask.validate(*args, compute=False, **kwargs)
    return client.compute(lazy).result(timeout=60)


def test_dask_on_two_workers_with_bad_bytes_in_shards(tmp_path, cluster):
    paths = [corpus_file(tmp_path / (f"shard-{k}.jsonl" + (".gz" if k == 3 else "")), compress=k == 3)[0] for k in range(6)]
    good = tmp_path / "good.jsonl"
    good.write_bytes(b"\n".join(good_rows()) + b"\n")
    paths.append(str(good))
    valid, invalid, errors = cli_counts(paths)
    for blocksize in (None, 3000):
        result = dask_result(cluster, paths, SCHEMA, blocksize=blocksize)
        assert (result.valid, result.invalid) == (valid, invalid)
        assert [(e.file, e.line, e.pointer, e.message) for e in result.errors] == errors


def test_a_dask_task_that_fails_fails_the_job_at_once(tmp_path, cluster):
    good = tmp_path / "good.jsonl"
    good.write_bytes(b"\n".join(good_rows() * 20) + b"\n")
    # a file that cannot be read: a gzip member cut short
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(good.read_bytes())[:200])
    start = time.monotonic()
    with pytest.raises((EOFError, OSError)):
        dask_result(cluster, [str(good), str(cut)], SCHEMA, blocksize=2000)
    # an error of the library, in every task on the workers
    def break_the_library():
        import sediment_rows._native as native

        def fail(*args):
            raise RuntimeError("the library failed")
        native._validate_block = fail
    def repair_the_library():
        import importlib
        import sediment_rows._native as native
        native._validate_block = importlib.reload(native)._validate_block
    cluster.run(break_the_library)
    try:
        with pytest.raises(RuntimeError, match="the library failed"):
            dask_result(cluster, [str(good)], SCHEMA, blocksize=2000)
    finally:
        cluster.run(repair_the_library)
    assert time.monotonic() - start < 60


BOM_MESSAGE = ("a byte-order mark (bytes EF BB BF) at byte 0: JSON text never holds one outside a string; "
               "save the file as UTF-8 without a BOM")


def test_a_byte_order_mark_is_an_error_in_every_call(tmp_path):
    row = good_rows()[0]
    for document in (b"\xef\xbb\xbf" + row, "\ufeff" + row.decode()):  # the bytes, and a str that starts with U+FEFF
        assert [(e.id, e.pointer, e.message) for e in sediment_rows.validate(document)] == [("rows.parse.bom", "", BOM_MESSAGE)]
        with pytest.raises(sediment_rows.DecodeError) as raised:
            sediment_rows.loads(document)
        assert raised.value.errors[0].id == "rows.parse.bom"
    path = tmp_path / "rows.jsonl"
    path.write_bytes(row + b"\n\xef\xbb\xbf" + row + b"\n")
    docs = list(sediment_rows.read(path))
    assert [(d.line, [e.id for e in d.errors]) for d in docs] == [(1, []), (2, ["rows.parse.bom"])]
    assert sediment_rows.validate_file(path).errors == [sediment_rows.FileError(str(path), 2, "", BOM_MESSAGE, "rows.parse.bom")]
