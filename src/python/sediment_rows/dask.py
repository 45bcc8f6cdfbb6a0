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
lines the block holds; the last step numbers the lines of each file from its first block on, so every
line is exact whichever way the file was split.
"""
import dask
import fsspec.core
from fsspec.utils import infer_compression, read_block

from . import FileError, Validation, _native

__all__ = ["validate"]


def _check_block(fs, path, offset, length, compression, whole, schema):
    """One task: the verdicts on the lines of one block of one file (see _native._validate_block)."""
    with fsspec.core.OpenFile(fs, path, mode="rb", compression=compression) as f:
        data = f.read() if length is None else read_block(f, offset, length, b"\n")
    return _native._validate_block(schema, data, 1, whole)


def _combine(names, files, max_errors):
    """The last step: counts summed, and the errors of each file's blocks numbered from its first line."""
    valid = invalid = 0
    errors = []
    for name, blocks in zip(names, files):
        first = 1  # the first line of the block at hand
        for newlines, block_valid, block_invalid, block_errors in blocks:
            valid += block_valid
            invalid += block_invalid
            for line, e in block_errors:
                if max_errors is None or len(errors) < max_errors:
                    errors.append(FileError(name, first + line - 1, e.pointer, e.message, e.id))
            first += newlines
    return Validation(valid, invalid, errors)


def _offsets(size, blocksize):
    """Byte offsets and lengths that cut `size` bytes into blocks of about `blocksize` (as Dask's own
    read_bytes does); read_block moves each cut to the next line's start."""
    if size <= blocksize:
        return [(0, size)]
    count = size // blocksize
    step = size / count
    cuts = [int(i * step) for i in range(count)] + [size]
    return [(cuts[i], cuts[i + 1] - cuts[i]) for i in range(count)]


def validate(paths, schema, blocksize="64 MiB", max_errors=None, storage_options=None, compute=True, **compute_kwargs):
    """Validates every document of every file that ``paths`` names under ``schema``, as a Dask
    computation, and returns a sediment_rows.Validation: the counts ``valid`` and ``invalid`` and the
    ``errors`` (FileError: file, line, pointer, message, id), in the order of the files then of their
    lines, exactly what ``sediment-rows validate`` reports for the same files.

    ``paths``: a path, a glob or a list of them, local or any fsspec URL (``storage_options`` go to the
    file system, e.g. credentials). ``blocksize`` (bytes, or a string such as "64 MiB"; None for whole
    files) is the size of the byte blocks plain JSONL files are split into. ``max_errors`` caps the
    errors kept (the counts stay exact). With ``compute=False`` the result is a dask.delayed.Delayed
    to compute later or beside other work; otherwise it is computed with ``dask.compute`` on the
    current scheduler (the active distributed Client, if any), with ``compute_kwargs``.
    """
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
        whole = path.endswith(".json") or path.endswith(".json.gz")
        if compression or whole or blocksize is None:
            blocks = [(0, None)]
        else:
            size = fs.info(path)["size"]
            blocks = _offsets(size, blocksize) if size else []
        names.append(path if local else fs.unstrip_protocol(path))
        files.append([check(fs, path, offset, length, compression, whole, schema) for offset, length in blocks])
    result = dask.delayed(_combine, pure=False)(names, files, max_errors)
    if not compute:
        return result
    return dask.compute(result, **compute_kwargs)[0]
