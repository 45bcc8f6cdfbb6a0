"""sediment_rows.dask against the CLI: the same counts and the same (file, line, pointer, message) errors
on a sharded corpus, whichever way its files are cut into blocks, on a 2-worker LocalCluster."""
import gzip
import json
import os
import random
import re
import subprocess

import pytest

import sediment_rows
import sediment_rows.dask

ROW_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rows.jsonl")
SCHEMA = "nemo-gym-rollout"


def cli():
    path = os.environ.get("SEDIMENT_ROWS_CLI")
    assert path, "SEDIMENT_ROWS_CLI names the sediment-rows tool to compare with (ctest and tests/consumer set it)"
    return path


def variants():
    """Rows, valid and not: unknown keys, wrong types deep inside, bad JSON, blank lines."""
    with open(ROW_PATH, "rb") as f:
        good = [l.rstrip(b"\n") for l in f if l.strip()]
    bad = [
        good[0][:-1] + b', "debug": 1}',
        good[1].replace(b'"role": "user"', b'"role": "robot"', 1),
        good[2].replace(b'"segment_index": ', b'"segment_index": -', 1),
        good[0][: len(good[0]) // 2],
        b"[]",
    ]
    return good, bad, [b"", b"   ", b"\r"]


def make_corpus(root):
    rng = random.Random(15)
    good, bad, blank = variants()
    paths = []
    for k in range(5):
        lines = [rng.choice(good if rng.random() < 0.7 else (bad if rng.random() < 0.8 else blank)) for _ in range(40)]
        data = b"\n".join(lines) + (b"" if k == 2 else b"\n")  # shard 2 ends without a newline
        name = root / f"shard-{k}.jsonl"
        if k == 1:
            name = root / "shard-1.jsonl.gz"
            data = gzip.compress(data)
        name.write_bytes(data)
        paths.append(str(name))
    whole = root / "shard-5.json"  # one document over many lines
    whole.write_text(json.dumps(json.loads(good[1]), indent=2))
    (root / "shard-6.jsonl").write_bytes(b"")
    bad_whole = root / "shard-7.json"
    bad_whole.write_text(json.dumps(dict(json.loads(good[0]), extra=1), indent=1))
    return sorted(paths + [str(whole), str(root / "shard-6.jsonl"), str(bad_whole)])


def cli_verdicts(paths):
    run = subprocess.run([cli(), "validate", "--schema", SCHEMA, "--format", "jsonl", *paths], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    reports = [r for r in (json.loads(l) for l in (run.stdout + run.stderr).splitlines() if l.startswith("{")) if "summary" not in r]
    valid = sum(r["valid"] for r in reports)
    errors = [(r["file"], r["line"], e["pointer"], e["message"]) for r in reports for e in r["errors"]]
    return valid, len(reports) - valid, errors


def triples(result):
    return result.valid, result.invalid, [(e.file, e.line, e.pointer, e.message) for e in result.errors]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    paths = make_corpus(tmp_path_factory.mktemp("corpus"))
    return paths, cli_verdicts(paths)


def test_the_corpus_is_mixed(corpus):
    _, (valid, invalid, errors) = corpus
    assert valid > 50 and invalid > 20 and len({e[0] for e in errors}) >= 5


@pytest.mark.parametrize("blocksize", [None, 700, 2500, 10000, "64 MiB"])
def test_any_blocks_give_the_clis_verdicts(corpus, blocksize):
    paths, expected = corpus
    result = sediment_rows.dask.validate(paths, SCHEMA, blocksize=blocksize, scheduler="sync")
    assert isinstance(result, sediment_rows.Validation)
    assert triples(result) == expected


def test_a_glob_a_delayed_result_and_max_errors(corpus):
    paths, expected = corpus
    glob = os.path.join(os.path.dirname(paths[0]), "shard-*")
    lazy = sediment_rows.dask.validate(glob, SCHEMA, blocksize=1000, compute=False)
    assert triples(lazy.compute(scheduler="sync")) == expected
    capped = sediment_rows.dask.validate(paths, SCHEMA, blocksize=1000, max_errors=3, scheduler="threads")
    assert triples(capped) == (expected[0], expected[1], expected[2][:3])
    ids = sediment_rows.dask.validate(paths[:1], SCHEMA, scheduler="sync").errors
    assert all(re.match(r"rows\.[a-z_.]+$", e.id) for e in ids)


def test_arguments(corpus, tmp_path):
    paths, _ = corpus
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.dask.validate(paths, "nemo-gym-rollout.v9")
    with pytest.raises(ValueError, match="blocksize"):
        sediment_rows.dask.validate(paths, SCHEMA, blocksize=0)
    with pytest.raises(ValueError, match="max_errors"):
        sediment_rows.dask.validate(paths, SCHEMA, max_errors=-2)
    with pytest.raises(FileNotFoundError):
        sediment_rows.dask.validate(str(tmp_path / "none-*.jsonl"), SCHEMA)


def test_two_worker_processes_give_the_clis_verdicts(corpus, tmp_path):
    distributed = pytest.importorskip("distributed")
    paths, expected = corpus
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        result = sediment_rows.dask.validate(paths, SCHEMA, blocksize=900)  # the client's cluster, by default
        assert triples(result) == expected
        ran = client.run(lambda: __import__("sediment_rows").__version__)
        assert set(ran.values()) == {sediment_rows.__version__}
        # a file that changes between two calls is read again, even while the first result is held
        shard = tmp_path / "shard.jsonl"
        shard.write_bytes(open(paths[0], "rb").read())
        held = client.compute(sediment_rows.dask.validate(str(shard), SCHEMA, blocksize=900, compute=False))
        before = held.result()
        data = shard.read_bytes()
        lines = data.split(b"\n")
        k = next(k for k, l in enumerate(lines) if l.strip() and not sediment_rows.validate(l, SCHEMA))
        at = sum(len(l) + 1 for l in lines[:k])  # a valid row, broken in place: same size
        shard.write_bytes(data[:at] + b"[" + data[at + 1:])
        again = sediment_rows.dask.validate(str(shard), SCHEMA, blocksize=900)
        assert (again.valid, again.invalid) == (before.valid - 1, before.invalid + 1)


def test_blocks_cut_a_file_into_its_lines_exactly():
    """Every cut of the file (blocks with no line start, lines longer than a block or than the read-ahead,
    a last line with no newline) gives each line to exactly one block, whole."""
    import io
    from sediment_rows.dask import _lines, _offsets

    rng = random.Random(7)
    lengths = [rng.choice([0, 1, 5, 80, 700, 3000, 70000, 200000]) for _ in range(60)]
    lines = [bytes([97 + k % 26]) * n for k, n in enumerate(lengths)]
    small = [b"", b"a", b"bb", b"", b"cccccc", b"d" * 40]
    for tail, blocksizes in ((b"\n", (1, 2, 7)), (b"", (1, 3)), (b"\n", (999, 4096, 65536, 300000)), (b"", (999, 70001))):
        data = b"\n".join(small if blocksizes[0] < 10 else lines) + tail
        for blocksize in blocksizes + (len(data),):
            blocks = []
            for offset, length in _offsets(len(data), blocksize):
                buffer, start, end = _lines(io.BytesIO(data), offset, length, len(data))
                blocks.append(bytes(buffer[start:end]))
            assert b"".join(blocks) == data, blocksize
            at = 0  # where each block starts in the file: at a line start inside its own byte range
            for block, (offset, length) in zip(blocks, _offsets(len(data), blocksize)):
                assert not block or ((at == 0 or data[at - 1:at] == b"\n") and offset <= at < offset + length)
                at += len(block)


def test_an_fsspec_url_reads_as_a_local_path(corpus):
    """A file system other than the local one (fsspec's memory://, as an object store would be): the
    same verdicts, the files named by their URLs."""
    fsspec = pytest.importorskip("fsspec")
    paths, (valid, invalid, errors) = corpus
    memory = fsspec.filesystem("memory")
    urls = {}
    for path in paths:
        url = "memory://corpus/" + os.path.basename(path)
        with open(path, "rb") as f:
            memory.pipe(url, f.read())
        urls[path] = "memory:///corpus/" + os.path.basename(path)  # as fsspec names it: its root is "/"
    try:
        for blocksize in (None, 1000):
            result = sediment_rows.dask.validate("memory://corpus/shard-*", SCHEMA, blocksize=blocksize, scheduler="threads")
            assert triples(result) == (valid, invalid, [(urls[f], line, p, m) for f, line, p, m in errors])
    finally:
        memory.rm("memory://corpus", recursive=True)


def test_a_corpus_mixing_families_under_any(tmp_path):
    """Rollout rows and an SFT sample (valid, then with a tool it may not have), read by --schema any."""
    from test_module import SFT_V3
    sft = json.dumps(SFT_V3).encode()
    bad = json.dumps(dict(SFT_V3, tools=[{}])).encode()
    with open(ROW_PATH, "rb") as f:
        rows = [l.rstrip(b"\n") for l in f if l.strip()]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(rows + [sft, bad, sft]) + b"\n")
    result = sediment_rows.dask.validate([str(path)], "any", blocksize=300, scheduler="sync")
    assert (result.valid, result.invalid) == (len(rows) + 2, 1)
    [error] = result.errors
    assert (error.line, error.pointer, error.id) == (len(rows) + 2, "/tools/0", "rows.decode.no_items")


def test_a_folder_is_its_document_files_as_the_cli_walks_it(corpus, tmp_path):
    paths, _ = corpus
    root = tmp_path / "export"
    (root / "b").mkdir(parents=True)
    (root / ".hidden").mkdir()
    for k, path in enumerate(paths):  # some below a subfolder, all in another order than given
        (root / ("b" if k % 2 else "") / os.path.basename(path)).write_bytes(open(path, "rb").read())
    (root / ".hidden" / "x.jsonl").write_text("not read\n")
    (root / "notes.txt").write_text("not read either\n")
    for folder in (str(root), str(root) + "/"):
        expected = cli_verdicts([folder])
        assert {e[0] for e in expected[2]} >= {str(root / "b" / "shard-1.jsonl.gz"), str(root / "shard-0.jsonl")}
        assert triples(sediment_rows.dask.validate(folder, SCHEMA, blocksize=1000, scheduler="sync")) == expected
        assert triples(sediment_rows.validate_file(folder, SCHEMA)) == expected
        docs = list(sediment_rows.read(folder, SCHEMA))
        assert [(d.file, d.line) for d in docs if d.errors] == sorted({(e[0], e[1]) for e in expected[2]}, key=[(e[0], e[1]) for e in expected[2]].index)
        assert sum(1 for d in docs if not d.errors) == expected[0]
    empty = tmp_path / "empty"
    empty.mkdir()
    for call in (lambda: sediment_rows.validate_file(empty), lambda: sediment_rows.read(empty),
                 lambda: sediment_rows.dask.validate(str(empty), scheduler="sync")):
        with pytest.raises(FileNotFoundError, match="holds no"):
            call()
