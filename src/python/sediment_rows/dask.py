"""Validation of sharded corpora as a Dask computation, on whatever client the caller has.

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
"""
import threading
from typing import Any, Dict, List, Optional, Union

import dask
import fsspec.core
from fsspec.utils import infer_compression

from . import FileError, Validation, _check, _native

__all__ = ["validate"]


_buffers = threading.local()  # one reused buffer per worker thread: no fresh pages for every block


def _buffer(size):
    buffer = getattr(_buffers, "buffer", None)
    if buffer is None or len(buffer) < size:
        buffer = _buffers.buffer = bytearray(size)
    return buffer


def _read_into(f, buffer, at, count):
    """Reads up to `count` bytes into buffer[at:]; the number read (short only at the end of the file)."""
    with memoryview(buffer) as view:
        done = 0
        while done < count:
            n = f.readinto(view[at + done:at + count])
            if not n:
                break
            done += n
    return done


def _lines(f, offset, length, size):
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
    while True:
        newline = buffer.find(b"\n", searched, n)
        if newline >= 0:
            return buffer, start, newline + 1
        searched = n
        if len(buffer) < n + (1 << 20):
            grown = bytearray(2 * len(buffer) + (1 << 20))
            grown[:n] = buffer[:n]
            buffer = _buffers.buffer = grown
        read = _read_into(f, buffer, n, len(buffer) - n)
        if not read:
            return buffer, start, n
        n += read


def _check_block(fs, path, offset, length, size, compression, whole, schema):
    """One task: the verdicts on the lines of one block of one file (see _native._validate_block)."""
    with fsspec.core.OpenFile(fs, path, mode="rb", compression=compression) as f:
        if length is None:
            return _native._validate_block(schema, f.read(), 1, whole)
        buffer, start, end = _lines(f, offset, length, size)
        with memoryview(buffer) as view:
            return _native._validate_block(schema, view[start:end], 1, whole)


def _combine(names, files, max_errors):
    """The last step: counts summed, and the errors of each file's blocks numbered from its first line."""
    valid = invalid = 0
    errors = []
    for name, blocks in zip(names, files):
        first = 1  # the first line of the block at hand
        for newlines, block_valid, block_invalid, block_errors in blocks:
            valid += block_valid
            invalid += block_invalid
            for line, (id, pointer, message) in block_errors:
                if max_errors is None or len(errors) < max_errors:
                    errors.append(FileError(name, first + line - 1, pointer, message, id))
            first += newlines
    return Validation(valid, invalid, errors)


def _offsets(size, blocksize):
    """Byte offsets and lengths that cut `size` bytes into blocks of about `blocksize` (as Dask's own
    read_bytes does); each block then holds the lines that start in it (_lines)."""
    if size <= blocksize:
        return [(0, size)]
    count = size // blocksize
    step = size / count
    cuts = [int(i * step) for i in range(count)] + [size]
    return [(cuts[i], cuts[i + 1] - cuts[i]) for i in range(count)]


def validate(paths: Union[str, List[str]], schema: str = "nemo-gym-rollout", blocksize: Union[int, str, None] = "64 MiB",
             max_errors: Optional[int] = None, storage_options: Optional[Dict[str, Any]] = None, compute: bool = True,
             document: bool = False, **compute_kwargs: Any) -> Union[Validation, "dask.delayed.Delayed"]:
    """Validates every document of every file that ``paths`` names under ``schema``, as a Dask
    computation, and returns a sediment_rows.Validation: the counts ``valid`` and ``invalid`` and the
    ``errors`` (FileError: file, line, pointer, message, id), in the order of the files then of their
    lines, exactly what ``sediment-rows validate`` reports for the same files. A local file is named by
    its path (made absolute by fsspec), any other by its URL as fsspec writes it.

    ``paths``: a path, a glob or a list of them, local or any fsspec URL (``storage_options`` go to the
    file system, e.g. credentials). ``blocksize`` (bytes, or a string such as "64 MiB"; None for whole
    files) is the size of the byte blocks plain JSONL files are split into. ``max_errors`` caps the
    errors kept (the counts stay exact). ``document=True`` reads each file as one document, whatever its
    name (the CLI's --document). With ``compute=False`` the result is a dask.delayed.Delayed
    to compute later or beside other work; otherwise it is computed with ``dask.compute`` on the
    current scheduler (the active distributed Client, if any), with ``compute_kwargs``.
    """
    if isinstance(paths, str):
        _check(paths, schema)  # (schema, paths) swapped: TypeError
    _native._validate_block(schema, b"", 1, False)  # an unknown schema name raises ValueError now
    if blocksize is not None:
        blocksize = dask.utils.parse_bytes(blocksize)
        if blocksize < 1:
            raise ValueError("blocksize is a positive number of bytes, or None")
    if max_errors is not None and (not isinstance(max_errors, int) or max_errors < 0):
        raise ValueError("max_errors is a non-negative int, or None for no limit")
    fs, _, resolved = fsspec.core.get_fs_token_paths(paths, mode="rb", storage_options=storage_options)
    if not resolved:
        raise FileNotFoundError(f"{paths!r} names no file")
    local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
    # not pure: a file can change between two calls, and its path alone does not say so
    check = dask.delayed(_check_block, pure=False)
    names, files = [], []
    for path in resolved:
        compression = infer_compression(path)
        whole = document or path.endswith(".json") or path.endswith(".json.gz")
        size = None
        if compression or whole or blocksize is None:
            blocks = [(0, None)]
        else:
            size = fs.info(path)["size"]
            blocks = _offsets(size, blocksize) if size else []
        names.append(path if local else fs.unstrip_protocol(path))
        files.append([check(fs, path, offset, length, size, compression, whole, schema) for offset, length in blocks])
    result = dask.delayed(_combine, pure=False)(names, files, max_errors)
    if not compute:
        return result
    return dask.compute(result, **compute_kwargs)[0]
