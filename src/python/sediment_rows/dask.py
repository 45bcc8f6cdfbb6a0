"""Sharded corpora as Dask computations, on whatever client the caller has: validate, lint (its rules
across rows too), and the jobs that write (convert, upgrade, format).

    from distributed import Client
    import sediment_rows.dask

    client = Client("scheduler:8786")             # or LocalCluster(), or no client: Dask's default
    result = sediment_rows.dask.validate("s3://corpus/rows-*.jsonl", "nemo-gym-rollout")
    print(result.valid, result.invalid)
    for e in result.errors:
        print(e.file, e.line, e.pointer, e.message)

Files are read where the tasks run, through fsspec (local paths, globs, s3://, gs://, ...: whatever Dask
reads). A plain JSONL file is split into byte blocks of whole lines, one task each; a compressed file
(by its name: .gz, .bz2, .xz, ...) and a file named *.json or *.json.gz (one document) are read whole.
Each task returns its counts and errors with line numbers from the start of its block, and how many
lines the block holds, as plain Python values (which pickle anywhere: a task's result always reaches
the last step); the last step numbers the lines of each file from its first block on, so every line is
exact whichever way the file was split. A task that fails (a file that cannot be read, say) fails the
computation with its error.

The jobs that write (docs/dask.md) write one output file for each input file, committed by a rename:
each block's task writes its lines to a part file of its own in a staging folder under the output, each
input's last task joins its parts, in order, into a file beside them and renames it to its place, and
the job's last task removes the staging folder. A task that fails or whose worker dies is run again by
Dask and writes new parts; a reader never sees a half-written output, and a run gives the same files
byte for byte whatever the block size, worker count or order of tasks.
"""
import os
import posixpath
import re
import threading
import uuid
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union, cast

import dask.utils
import fsspec.core  # type: ignore[import]  # (fsspec 2022.11 has no type information)
from dask.base import compute as dask_compute
from dask.delayed import Delayed, delayed
from fsspec.utils import infer_compression  # type: ignore[import]

from . import FileError, Validation, _check, _native

__all__ = ["validate", "lint", "Linted", "convert", "upgrade", "format", "Written"]


_buffers = threading.local()  # reused buffers per worker thread, in and out: no fresh pages for every block


def _buffer(size: int) -> bytearray:
    buffer = getattr(_buffers, "buffer", None)
    if buffer is None or len(buffer) < size:
        buffer = _buffers.buffer = bytearray(size)
    return buffer


def _read_into(f: Any, buffer: bytearray, at: int, count: int) -> int:
    """Reads up to `count` bytes into buffer[at:]; the number read (short only at the end of the file)."""
    with memoryview(buffer) as view:
        done = 0
        while done < count:
            n = f.readinto(view[at + done:at + count])
            if not n:
                break
            done += n
    return done


def _lines(f: Any, offset: int, length: int, size: int) -> Tuple[bytearray, int, int]:
    """The lines that start in bytes [offset, offset + length) of the file: a line starts at 0 and
    after each "\n". Consecutive blocks thus share their cut: one ends where the next begins, and a
    block in which no line starts is empty. Returns (buffer, start, end) of the bytes, read into
    the worker thread's reused buffer."""
    begin = max(offset - 1, 0)  # "\n" at offset - 1 starts a line at offset
    want = offset + length - begin
    buffer = _buffer(want + (1 << 16))
    f.seek(begin)
    n = _read_into(f, buffer, 0, want)
    if offset == 0:
        start = 0
    else:
        newline = buffer.find(b"\n", 0, min(n, want - 1))
        if newline < 0:  # no line starts in this block
            return buffer, 0, 0
        start = newline + 1
    if offset + length >= size:
        return buffer, start, n
    searched = want - 1  # the block's last byte: a line that starts after it is the next block's
    chunk = 1 << 16  # the block's last line goes on past it: read on in chunks that double, no further
    while True:
        newline = buffer.find(b"\n", searched, n)
        if newline >= 0:
            return buffer, start, newline + 1
        searched = n
        if len(buffer) < n + chunk:
            grown = bytearray(max(2 * len(buffer), n + chunk))
            grown[:n] = buffer[:n]
            buffer = _buffers.buffer = grown
        read = _read_into(f, buffer, n, chunk)
        if not read:
            return buffer, start, n
        n += read
        chunk *= 2


def _block_text(fs: Any, path: str, offset: int, length: Optional[int], size: Optional[int], compression: Optional[str],
                run: Callable[[Any], Any]) -> Any:
    """run(text) on the lines of one block of one file (a whole file when length is None)."""
    with fsspec.core.OpenFile(fs, path, mode="rb", compression=compression) as f:
        if length is None or size is None:  # (a block's file always has its size)
            return run(f.read())
        buffer, start, end = _lines(f, offset, length, size)
        with memoryview(buffer) as view:
            return run(view[start:end])


def _check_block(fs: Any, path: str, offset: int, length: Optional[int], size: Optional[int], compression: Optional[str],
                 whole: bool, schema: str) -> Any:
    """One task: the verdicts on the lines of one block of one file (see _native._validate_block)."""
    return _block_text(fs, path, offset, length, size, compression, lambda text: _native._validate_block(schema, text, 1, whole))


def _numbered_blocks(files: Sequence[Sequence[Any]]) -> Iterator[Tuple[int, int, Any]]:
    """(file index, the block's first line in its file, block) for every block of every file, in order.
    Each block is (newlines, ...): the lines of a file are numbered from its first block on."""
    for index, blocks in enumerate(files):
        first = 1
        for block in blocks:
            yield index, first, block
            first += block[0]


def _numbered(names: Sequence[str], files: Sequence[Sequence[Any]], max_errors: Optional[int]) -> Tuple[int, int, List[FileError]]:
    """The counts of every block summed, and the errors of each file's blocks numbered from its first
    line. Each block is (newlines, ok, failed, errors, ...)."""
    ok = failed = 0
    errors: List[FileError] = []
    for index, first, (_, block_ok, block_failed, block_errors, *_) in _numbered_blocks(files):
        ok += block_ok
        failed += block_failed
        for line, (id, pointer, message) in block_errors:
            if max_errors is None or len(errors) < max_errors:
                errors.append(FileError(names[index], first + line - 1, pointer, message, id))
    return ok, failed, errors


def _combine(names: Sequence[str], files: Sequence[Sequence[Any]], max_errors: Optional[int]) -> Validation:
    """The last step: counts summed, and the errors of each file's blocks numbered from its first line."""
    return Validation(*_numbered(names, files, max_errors))


def _result(result: Delayed, compute: bool, compute_kwargs: Dict[str, Any]) -> Any:
    """`result`, or with `compute` its value, computed on the current scheduler."""
    if not compute:
        return result
    return dask_compute(result, **compute_kwargs)[0]  # type: ignore[no-untyped-call]  # (untyped in dask 2022.12)


def _offsets(size: int, blocksize: int) -> List[Tuple[int, int]]:
    """Byte offsets and lengths that cut `size` bytes into blocks of about `blocksize` (as Dask's own
    read_bytes does); each block then holds the lines that start in it (_lines)."""
    if size <= blocksize:
        return [(0, size)]
    count = size // blocksize
    step = size / count
    cuts = [int(i * step) for i in range(count)] + [size]
    return [(cuts[i], cuts[i + 1] - cuts[i]) for i in range(count)]


def _checked(blocksize: Union[int, str, None], max_errors: Optional[int]) -> Optional[int]:
    """blocksize in bytes (or None); ValueError for a blocksize or max_errors out of range."""
    if blocksize is not None:
        blocksize = dask.utils.parse_bytes(blocksize)
        if blocksize < 1:
            raise ValueError("blocksize is a positive number of bytes, or None")
    if max_errors is not None and (not isinstance(max_errors, int) or max_errors < 0):
        raise ValueError("max_errors is a non-negative int, or None for no limit")
    return blocksize


def _named(pattern: str, fs: Any, path: str) -> str:
    """How results name `path`, a file `pattern` names: as the caller named it, as the CLI does. A local
    path as given; a match of a local glob below the glob's folder as given (`rows/*.jsonl` ->
    `rows/a.jsonl`); any other file by its URL as fsspec writes it."""
    local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
    if not local:
        return str(fs.unstrip_protocol(path))
    magic = [pattern.find(c) for c in "*?[" if c in pattern]
    if not magic:
        return pattern
    head = pattern[:min(magic)]
    head = head[:head.rfind("/") + 1]  # the glob's folder as given: "" for the current one
    folder = os.path.normpath(str(fs._strip_protocol(head or "."))).rstrip("/") + "/"  # ("/tmp/." is "/tmp")
    return head + path[len(folder):] if path.startswith(folder) else path


_DOCUMENT_FILE = re.compile(r"\.jsonl?(\.gz)?$")  # what a folder's walk reads: *.jsonl, *.json, and gzipped


class _File(NamedTuple):
    """One input file of a job: its file system and path, its name in results, how it is read, and its
    blocks (offset, length), or [(0, None)] for a file read whole."""

    fs: Any
    path: str
    name: str
    compression: Optional[str]
    whole: bool
    size: Optional[int]
    blocks: List[Tuple[int, Optional[int]]]


def _plan(paths: Union[str, List[str]], blocksize: Optional[int], storage_options: Optional[Dict[str, Any]],
          document: bool) -> List[_File]:
    """The files `paths` names, in order: each path or glob in turn, a glob's matches sorted."""
    plan = []
    for pattern in [paths] if isinstance(paths, str) else paths:
        fs, _, resolved = fsspec.core.get_fs_token_paths(pattern, mode="rb", storage_options=storage_options)
        if not resolved:
            raise FileNotFoundError(f"{pattern!r} names no file")
        named = []  # (path, name)
        for path in resolved:
            if not fs.isdir(path):
                named.append((path, _named(pattern, fs, path)))
                continue
            # a folder: its document files, as the CLI walks one (sorted, hidden names passed over)
            folder = path.rstrip("/")
            found = sorted((found[len(folder) + 1:], found) for found in fs.find(folder))
            found = [(relative, p) for relative, p in found
                     if _DOCUMENT_FILE.search(relative) and not any(part.startswith(".") for part in relative.split("/"))]
            if not found:
                raise FileNotFoundError(f"the folder {pattern!r} holds no *.jsonl, *.jsonl.gz, *.json or *.json.gz file")
            local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
            head = pattern.rstrip("/") + "/" if local and len(resolved) == 1 else None
            named += [(p, head + relative if head else _named(pattern, fs, p)) for relative, p in found]
        for path, name in named:
            compression = infer_compression(path)
            whole = document or path.endswith(".json") or path.endswith(".json.gz")
            size = None
            blocks: List[Tuple[int, Optional[int]]] = [(0, None)]
            if not (compression or whole or blocksize is None):
                size = fs.info(path)["size"]
                blocks = list(_offsets(size, blocksize)) if size else []
            plan.append(_File(fs, path, name, compression, whole, size, blocks))
    return plan


def validate(paths: Union[str, List[str]], schema: str = "nemo-gym-rollout", blocksize: Union[int, str, None] = "64 MiB",
             max_errors: Optional[int] = None, storage_options: Optional[Dict[str, Any]] = None, compute: bool = True,
             document: bool = False, **compute_kwargs: Any) -> Union[Validation, Delayed]:
    """Validates every document of every file that ``paths`` names under ``schema``, as a Dask
    computation, and returns a sediment_rows.Validation: the counts ``valid`` and ``invalid`` and the
    ``errors`` (FileError: file, line, pointer, message, id), in the order of the files then of their
    lines, exactly what ``sediment-rows validate`` reports for the same files. A local file is named as
    the caller named it (a glob's matches below its folder as given: ``rows/*.jsonl`` -> ``rows/a.jsonl``),
    any other by its URL as fsspec writes it.

    ``paths``: a path, a glob, a folder or a list of them, local or any fsspec URL (``storage_options``
    go to the file system, e.g. credentials). A folder stands for its *.jsonl, *.jsonl.gz, *.json and
    *.json.gz files, recursively, sorted (hidden names passed over), a local one's named FOLDER/PATH. ``blocksize`` (bytes, or a string such as "64 MiB"; None for whole
    files) is the size of the byte blocks plain JSONL files are split into. ``max_errors`` caps the
    errors kept (the counts stay exact). ``document=True`` reads each file as one document, whatever its
    name (the CLI's --document). With ``compute=False`` the result is a dask.delayed.Delayed
    to compute later or beside other work; otherwise it is computed with ``dask.compute`` on the
    current scheduler (the active distributed Client, if any), with ``compute_kwargs``.
    """
    if isinstance(paths, str):
        _check(paths, schema)  # (schema, paths) swapped: TypeError
    _native._validate_block(schema, b"", 1, False)  # an unknown schema name raises ValueError now
    plan = _plan(paths, _checked(blocksize, max_errors), storage_options, document)
    # not pure: a file can change between two calls, and its path alone does not say so
    check = delayed(_check_block, pure=False)
    files = [[check(f.fs, f.path, offset, length, f.size, f.compression, f.whole, schema) for offset, length in f.blocks]
             for f in plan]
    result = delayed(_combine, pure=False)([f.name for f in plan], files, max_errors)
    return cast(Union[Validation, Delayed], _result(result, compute, compute_kwargs))


# ----- lint ------------------------------------------------------------------------------------------


class Linted(NamedTuple):
    """The Dask lint's result: ``rows`` documents read, ``invalid`` of them not schema-valid, and the
    ``findings`` (FileError: file, line, pointer, message, id), in the order ``sediment-rows lint``
    reports them: each row's own (its schema errors, or its findings within the row, then those against
    earlier rows), in file then line order, then those about whole sessions."""

    rows: int
    invalid: int
    findings: List[FileError]

    @property
    def ok(self) -> bool:
        return not self.findings


def _lint_block(fs: Any, path: str, offset: int, length: Optional[int], size: Optional[int], compression: Optional[str],
                whole: bool, schema: str, eval_fraction: float, min_confidence: float) -> Any:
    """One task: each row's own findings and the facts the rules across rows need (_native._lint_block)."""
    return _block_text(fs, path, offset, length, size, compression,
                       lambda text: _native._lint_block(schema, eval_fraction, text, 1, whole, min_confidence))


def _lint_combine(names: Sequence[str], files: Sequence[Sequence[Any]], eval_fraction: float, sessions_complete: bool,
                  max_pairs_per_bucket: int) -> Linted:
    """The last step: the rules across rows over every row's facts in input order, and every finding
    numbered and ordered as the CLI reports it."""
    rows = invalid = 0
    ordered: List[Tuple[int, int, int, int, FileError]] = []  # (file, line, 0: a row's own or 1: across rows, order, finding)
    facts: List[Tuple[str, List[Any]]] = [(name, []) for name in names]  # each file's blocks: (first line, facts)
    for index, first, (_, valid, block_invalid, findings, block_facts) in _numbered_blocks(files):
        rows += valid + block_invalid
        invalid += block_invalid
        for line, (id, pointer, message) in findings:
            ordered.append((index, first + line - 1, 0, len(ordered), FileError(names[index], first + line - 1, pointer, message, id)))
        facts[index][1].append((first, block_facts))
    across, sessions = _native._lint_across(eval_fraction, sessions_complete, facts, max_pairs_per_bucket)
    for index, line, (id, pointer, message) in across:
        ordered.append((index, line, 1, len(ordered), FileError(names[index], line, pointer, message, id)))
    ordered.sort(key=lambda finding: finding[:4])
    findings = [finding[4] for finding in ordered]
    findings += [FileError(name, line, pointer, message, id) for name, line, (id, pointer, message) in sessions]
    return Linted(rows, invalid, findings)


def lint(paths: Union[str, List[str]], schema: str = "nemo-gym-rollout", eval_fraction: float = 0.1,
         sessions_complete: bool = False, min_confidence: float = 0.6, max_pairs_per_bucket: int = 3,
         blocksize: Union[int, str, None] = "64 MiB",
         storage_options: Optional[Dict[str, Any]] = None, compute: bool = True, document: bool = False,
         **compute_kwargs: Any) -> Union[Linted, Delayed]:
    """``sediment-rows lint --schema SCHEMA`` over a sharded corpus (docs/lint.md): every rule within a
    row, in each block's task, and the rules across rows over the rows of each session wherever they
    sit, a session split across files or blocks included. Returns a Linted whose findings equal the
    CLI's over the same files, in its order. ``schema`` is any family of Sediment's rows, or "any";
    ``eval_fraction``, ``sessions_complete``, ``min_confidence`` and ``max_pairs_per_bucket`` are the
    CLI's ``--eval-fraction``, ``--sessions-complete``, ``--min-confidence`` and
    ``--max-pairs-per-bucket``; the other arguments are validate()'s.

    The rules across rows need only a few facts of each row (SessionFacts: the session, the segment,
    the instance id and a 64-bit digest of each value a session's rows share: about 130 bytes), so each
    task returns them beside its findings and the last step runs the rules over them in input order: it
    moves under 1% of the corpus and holds what the CLI's own linter holds. A shuffle of the rows by
    session would move every byte of the corpus between workers to learn the same."""
    if isinstance(paths, str):
        _check(paths, schema)
    _native._lint_block(schema, eval_fraction, b"", 1, False, min_confidence)  # a schema lint does not read, a bad option: ValueError now
    if not isinstance(max_pairs_per_bucket, int) or isinstance(max_pairs_per_bucket, bool) or max_pairs_per_bucket < 1:
        raise ValueError("max_pairs_per_bucket is an int, 1 or more")
    plan = _plan(paths, _checked(blocksize, None), storage_options, document)
    task = delayed(_lint_block, pure=False)
    files = [[task(f.fs, f.path, offset, length, f.size, f.compression, f.whole, schema, eval_fraction, min_confidence)
              for offset, length in f.blocks] for f in plan]
    result = delayed(_lint_combine, pure=False)([f.name for f in plan], files, eval_fraction, sessions_complete, max_pairs_per_bucket)
    return cast(Union[Linted, Delayed], _result(result, compute, compute_kwargs))


# ----- the jobs that write ------------------------------------------------------------------------


class Written(NamedTuple):
    """What a job that writes did: ``written`` documents written and ``failed`` documents not (each with
    its errors: FileError, in the order of the files then of their lines, as the CLI reports them),
    ``losses``: what --lossy dropped, {kind: count} ("ci_resolution", "timestamp", ...), and ``files``:
    the output files, one for each input file, in the inputs' order."""

    written: int
    failed: int
    errors: List[FileError]
    losses: Dict[str, int]
    files: List[str]


def _rewrite_block(fs: Any, path: str, offset: int, length: Optional[int], size: Optional[int], compression: Optional[str],
                   whole: bool, job: Tuple[Any, ...], out_fs: Any, staging: str) -> Tuple[Any, ...]:
    """One task: the block's documents rewritten (_native._rewrite_block) into a new part file of its own
    under `staging`; (part, newlines, written, failed, errors, losses)."""
    out = getattr(_buffers, "out", None)
    if out is None:
        out = _buffers.out = bytearray()  # the worker thread's: reused, as its input buffer is
    newlines, ok, failed, out, errors, losses = _block_text(
        fs, path, offset, length, size, compression, lambda text: _native._rewrite_block(*job, text, 1, whole, out))
    part = f"{staging}/{uuid.uuid4().hex}.part"  # a rerun writes another: a part is read only by the name its task returned
    out_fs.makedirs(staging, exist_ok=True)
    with out_fs.open(part, "wb") as f:
        f.write(out)
    return part, newlines, ok, failed, errors, losses


def _append(part: Any, out: Any) -> None:
    """Copies the file `part` to the end of `out` through the worker thread's reused buffer: shutil's
    copy reads into a new object for each chunk, fresh pages every time under the nanny's
    MALLOC_TRIM_THRESHOLD_ (10x slower: 240 against 3000 MB/s)."""
    buffer = _buffer(1 << 20)
    with memoryview(buffer) as view:
        while True:
            n = _read_into(part, buffer, 0, 1 << 20)
            if not n:
                return
            out.write(view[:n])


def _commit(out_fs: Any, staging: str, target: str, blocks: Sequence[Tuple[Any, ...]]) -> List[Tuple[Any, ...]]:
    """An input's last task: its blocks' parts joined, in order, into a file beside them, renamed to
    `target` (replacing an earlier run's); the blocks' results without their parts."""
    joined = f"{staging}/{uuid.uuid4().hex}.joined"
    out_fs.makedirs(staging, exist_ok=True)
    with out_fs.open(joined, "wb") as out:
        for block in blocks:
            with out_fs.open(block[0], "rb") as part:
                _append(part, out)
    parent = posixpath.dirname(target)
    if parent:
        out_fs.makedirs(parent, exist_ok=True)
    out_fs.mv(joined, target)
    return [block[1:] for block in blocks]


def _finish(out_fs: Any, staging: str, names: Sequence[str], outputs: List[str], files: Sequence[Sequence[Any]],
            max_errors: Optional[int]) -> "Written":
    """The job's last task: the staging folder removed, the counts summed, the errors numbered, the
    losses counted."""
    try:
        out_fs.rm(staging, recursive=True)
    except FileNotFoundError:  # (a rerun of this task)
        pass
    written, failed, errors = _numbered(names, files, max_errors)
    losses: Dict[str, int] = {}
    for blocks in files:
        for *_, block_losses in blocks:
            for kind, count in block_losses.items():
                losses[kind] = losses.get(kind, 0) + count
    return Written(written, failed, errors, dict(sorted(losses.items())), outputs)


def _run_job(job: Tuple[Any, ...], paths: Union[str, List[str]], output: str, blocksize: Union[int, str, None],
             max_errors: Optional[int], storage_options: Optional[Dict[str, Any]], compute: bool, document: bool,
             compute_kwargs: Dict[str, Any]) -> Union["Written", Delayed]:
    _native._rewrite_block(*job, b"", 1, False)  # unknown names, or a rewrite the CLI refuses: ValueError now
    plan = _plan(paths, _checked(blocksize, max_errors), storage_options, document)
    out_fs, root = fsspec.core.url_to_fs(output, **(storage_options or {}))
    root = root.rstrip("/")
    names = _native._output_names([f.path for f in plan], [f.whole for f in plan])  # the CLI's --out names them so
    targets = [f"{root}/{name}" for name in names]
    if set(targets) & {f.path for f in plan if type(f.fs) is type(out_fs)}:
        raise ValueError(f"the output {output!r} would overwrite an input: write to another folder")
    staging = f"{root}/.sediment-rows-{uuid.uuid4().hex}"  # this call's: removed by its last task
    rewrite = delayed(_rewrite_block, pure=False)
    commit = delayed(_commit, pure=False)
    files = [commit(out_fs, staging, target, [rewrite(f.fs, f.path, offset, length, f.size, f.compression, f.whole, job, out_fs,
                                                      staging) for offset, length in f.blocks])
             for f, target in zip(plan, targets)]
    shown = [output.rstrip("/") + "/" + name for name in names]  # the output folder as the caller named it
    result = delayed(_finish, pure=False)(out_fs, staging, [f.name for f in plan], shown, files, max_errors)
    return cast(Union["Written", Delayed], _result(result, compute, compute_kwargs))


_JOB_ARGUMENTS = """
    ``paths``, ``blocksize``, ``max_errors``, ``storage_options``, ``document``, ``compute`` and
    ``compute_kwargs`` are validate()'s. ``output`` is a folder (a path or any fsspec URL) that every
    worker can write: each input file gets one output file there, named by its path below the folder
    that holds every input (``a/rows-1.jsonl.gz`` -> ``a/rows-1.jsonl``; ``t.json`` -> ``t.jsonl``), which
    holds a line for each document written, in the input's order, exactly what the CLI writes for that
    file alone. An output file of the same name is replaced; other files are left alone. Returns a
    Written (or, with ``compute=False``, a dask.delayed.Delayed of one)."""


def convert(paths: Union[str, List[str]], source: str, target: str, output: str, style: str = "compact", lossy: bool = False,
            blocksize: Union[int, str, None] = "64 MiB", max_errors: Optional[int] = None,
            storage_options: Optional[Dict[str, Any]] = None, compute: bool = True, document: bool = False,
            **compute_kwargs: Any) -> Union[Written, Delayed]:
    """``sediment-rows convert --from SOURCE --to TARGET [--lossy] --style STYLE`` over a sharded corpus:
    ATIF trajectories to rollout rows or their parts, rollout rows to ATIF (docs/convert.md). A document
    that does not convert fails with its errors and writes nothing; with ``lossy``, what the target
    cannot hold is dropped and counted in ``losses``."""
    return _run_job(("convert", source, target, style, lossy), paths, output, blocksize, max_errors, storage_options, compute,
                    document, compute_kwargs)


def upgrade(paths: Union[str, List[str]], target: str, output: str, source: Optional[str] = None, style: str = "compact",
            lossy: bool = False, blocksize: Union[int, str, None] = "64 MiB", max_errors: Optional[int] = None,
            storage_options: Optional[Dict[str, Any]] = None, compute: bool = True, document: bool = False,
            **compute_kwargs: Any) -> Union[Written, Delayed]:
    """``sediment-rows upgrade --to TARGET [--from SOURCE] [--lossy] --style STYLE`` over a sharded corpus:
    each document as version ``target`` of its schema (docs/upgrade.md). ``source`` defaults to
    ``target``'s name without its version: rows name their own (a corpus of v2 and v3 rows upgrades in one
    job); other documents need it ("nemo-gym-response.v1", or "atif" for Harbor's trajectories to
    "atif-v1.7")."""
    return _run_job(("upgrade", source or "", target, style, lossy), paths, output, blocksize, max_errors, storage_options, compute,
                    document, compute_kwargs)


def format(paths: Union[str, List[str]], schema: str, output: str, style: str = "sediment",
           blocksize: Union[int, str, None] = "64 MiB", max_errors: Optional[int] = None,
           storage_options: Optional[Dict[str, Any]] = None, compute: bool = True, document: bool = False,
           **compute_kwargs: Any) -> Union[Written, Delayed]:
    """``sediment-rows format --schema SCHEMA --style STYLE`` over a sharded corpus: every document decoded
    strictly and written again in ``style`` ("sediment": the bytes Sediment's exporter writes; "compact").
    An invalid document fails with its errors and writes nothing."""
    return _run_job(("format", schema, "", style, False), paths, output, blocksize, max_errors, storage_options, compute,
                    document, compute_kwargs)


for _job in (convert, upgrade, format):
    _job.__doc__ = (_job.__doc__ or "") + _JOB_ARGUMENTS
