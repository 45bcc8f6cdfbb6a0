"""Strict models of NeMo Gym rollout rows and ATIF trajectories, over the C++ library sediment-rows.

    import sediment_rows
    errors = sediment_rows.validate(line)        # [] when the row is valid (any rollout version)
    for e in errors:
        print(e.pointer, e.message, e.id)

    for doc in sediment_rows.read("rows.jsonl.gz"):   # on every core
        if doc.errors: ...
        else: use(doc.value["metadata"]["session_id"])

Every call takes the data first, then the schema (by default "nemo-gym-rollout": a rollout row of any
version, read as the version it names); convert() and upgrade() take the source and target names.
sediment_rows.dask validates sharded corpora on a Dask cluster.
"""
import json
import os
import sys
from typing import Any, Dict, Generic, Iterator, List, Literal, NamedTuple, Optional, Tuple, TypeVar, Union

from . import _native, types
from ._native import Error, Linter, __version__, lint, schema_text, schemas, validate
from .types import Data, Path  # a JSON document's text (bytes or str); a file's path (str, bytes, a path object)
Style = Literal["compact", "sediment"]
_Value = TypeVar("_Value")

ROLLOUT = "nemo-gym-rollout"  # the default schema: rollout rows of every version, each read as the version it names

__all__ = [
    "ConvertError", "Converted", "DecodeError", "Document", "DocumentError", "EncodeError", "Error", "FileError", "Linter",
    "ProfileError", "ProfileFinding", "ROLLOUT", "Validation", "Verification",
    "__version__", "convert", "dumps", "lint", "loads", "read", "schema_text", "schemas", "types", "upgrade", "validate", "repair", "Repair", "Repaired",
    "validate_file", "verify", "write_profile",
]


class DocumentError(ValueError):
    """The base of every error that carries a document's errors: ``errors`` lists every one (Error), each
    at its JSON Pointer. Catch it to handle DecodeError, EncodeError and ConvertError alike."""

    def __init__(self, errors: List[Error]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid document")


class DecodeError(DocumentError):
    """A document that does not decode under its schema."""


class EncodeError(DocumentError):
    """A Python value that is no valid document of its schema."""


_check = _native._check_order  # TypeError when a call's arguments are swapped (data, then the schema names)


def _loads(data: Data, schema: str = ROLLOUT) -> Any:
    """Decodes one JSON document (bytes or str) strictly under ``schema`` into plain Python values.

    Objects become dicts in the schema's key order (free-form objects keep their own order); absent keys
    stay absent and null is None; integers are exact at any size; decimals are floats. A document with
    any error raises DecodeError, whose ``errors`` lists every one.

    To a type checker the value has the schema's shape: ``loads(line, "nemo-gym-rollout.v4")`` is a
    ``types.NemoGymRolloutRowV4`` (a TypedDict), ``loads(line)`` any version's (sediment_rows.types).
    """
    ok, value = _native._loads(schema, data)  # swapped arguments raise TypeError
    if not ok:
        raise DecodeError(value)
    return value


_loads.__name__ = _loads.__qualname__ = "loads"
loads: types.Loads = _loads  # typed by schema name: one overload per name (types.Loads)


def dumps(value: Any, schema: str = ROLLOUT, style: Style = "compact") -> bytes:
    """Encodes Python values as one document of ``schema`` (bytes), in ``style``: "compact", or
    "sediment" (the bytes Sediment's exporter writes). The value must be a valid document: unknown keys,
    wrong types, NaN and values that are not JSON raise EncodeError, each error at its JSON Pointer.
    ``dumps(loads(line, schema), schema, "sediment")`` gives back a line Sediment wrote, byte for byte.
    """
    _check(value, schema)
    ok, result = _native._dumps(schema, value, style)
    if not ok:
        raise EncodeError(result)
    text: bytes = result
    return text


class ConvertError(DocumentError):
    """A conversion or upgrade that fails: ``errors`` holds the source's errors (an invalid document), or
    each value the target cannot hold (strict mode). ``in_metadata`` is True when the errors are the
    ``metadata`` document's, not the source's. ``would_drop``: when the document failed only on what
    ``lossy=True`` drops, every value it would drop (Error, each at its place in the source), which
    ``would_drop_kinds`` counts as Converted.dropped does."""

    def __init__(self, errors: List[Error], in_metadata: bool = False, would_drop: Optional[List[Error]] = None) -> None:
        super().__init__(errors)
        self.in_metadata = in_metadata
        self.would_drop = list(would_drop or [])

    @property
    def would_drop_kinds(self) -> Dict[str, int]:
        """How many values of each kind ``would_drop`` holds ("audio", "agent", "ci_resolution", ...)."""
        return _kinds(self.would_drop)


def _kinds(losses: List[Error]) -> Dict[str, int]:
    """Losses counted by kind, as the CLI's summary counts them."""
    counts: Dict[str, int] = {}
    for loss in losses:
        kind: str = _native._loss_kind(loss)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


class Converted(NamedTuple):
    """A converted document: its bytes, and the source values lossy mode dropped (Error, each at its
    place in the source; empty unless ``lossy``)."""

    data: bytes
    losses: List[Error]

    @property
    def dropped(self) -> Dict[str, int]:
        """How many values of each kind ``losses`` holds, as the CLI's summary counts them: a
        conversion's kinds ("timestamp", "metrics", ...), an upgrade's dropped members
        ("ci_resolution", "reward", "reward_source"). Empty when nothing was dropped."""
        return _kinds(self.losses)


if sys.version_info >= (3, 11):  # a NamedTuple is generic from Python 3.11 on
    class Document(NamedTuple, Generic[_Value]):
        """One document of a file, as read() yields it: its line (1 for a whole .json file), and its
        value when it is valid (None otherwise), or its errors (empty when it is valid), and the file
        (a folder's files are named FOLDER/PATH, as the CLI names them). To a type
        checker, ``value`` has the shape the schema's name gives (read()'s overloads, types.Read)."""

        line: int
        value: Optional[_Value]
        errors: List[Error]
        file: str
else:
    class Document(NamedTuple):  # the same fields, untyped
        line: int
        value: Any
        errors: List[Error]
        file: str


class FileError(NamedTuple):
    """One error of a document in a file: the file, the document's line, and the error."""

    file: str
    line: int
    pointer: str
    message: str
    id: str


class Validation(NamedTuple):
    """The verdicts on the documents of files: how many are valid and invalid, and the errors, in file
    order then line order (at most ``max_errors`` of them when the call set a limit)."""

    valid: int
    invalid: int
    errors: List[FileError]

    @property
    def ok(self) -> bool:
        """True when every document is valid."""
        return self.invalid == 0


def _jobs(jobs: Optional[int], spare: int = 0) -> int:
    """The threads for `jobs`: None is every core this process may use, less `spare`, at least 1."""
    if jobs is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        return max(1, cores - spare)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError("jobs is a positive int, or None for every core")
    return jobs


def _path(path: Path) -> Tuple[str, bytes]:
    """The path as str (how errors name it) and as the bytes the file system knows it by."""
    path = os.fspath(path)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    if path != "-":
        os.stat(path)  # FileNotFoundError, PermissionError, ... now rather than at the first document
    return path, os.fsencode(path)  # a name that is not UTF-8 (surrogateescape) reaches the file as it is


def _files(path: Path) -> Tuple[str, List[bytes]]:
    """The path as str, and the files it names: itself, or a folder's files (*.jsonl, *.jsonl.gz,
    *.json, *.json.gz, recursively, sorted, hidden names passed over), as the CLI reads them.
    FileNotFoundError for a folder that holds none."""
    name, encoded = _path(path)
    return name, _native._expand_folders([encoded])


def _documents(reader: Any, name: str, single: bool) -> Iterator[Any]:
    try:
        names: Dict[bytes, str] = {}
        while True:
            batch = reader.next_batch()
            if not batch:
                return
            for line, value, errors, file in batch:
                if file not in names:
                    names[file] = name if single else os.fsdecode(file)
                yield Document(line, value, errors, names[file])
    finally:
        reader.close()


def _read(path: Path, schema: str = ROLLOUT, jobs: Optional[int] = None, document: bool = False) -> Any:
    """Iterates over the documents of a file under ``schema``, in file order, as Document tuples
    (line, value or None, errors, file). A folder stands for its files, read in turn: every *.jsonl,
    *.jsonl.gz, *.json and *.json.gz under it, recursively, sorted by path (hidden names passed over),
    each named FOLDER/PATH in ``file``; FileNotFoundError when it holds none. A JSONL file holds one document per line (blank lines skipped); a
    file named *.json or *.json.gz, or any file with ``document=True`` (the CLI's --document), is one
    document, whatever its layout. Plain or gzip-compressed, whatever the name. Bytes that are not
    UTF-8 anywhere give the document its error (rows.parse.syntax), as the CLI reports it.

    The file is read, decoded and validated on ``jobs`` threads with the GIL released, ahead of the
    loop and in bounded memory; values are the same as loads() gives. By default, every core but one:
    the loop's thread builds the values, and needs a core of its own. A file
    that cannot be read raises OSError, after the documents read before the fault. Stopping the loop
    early (break, or close() on the iterator) stops the reading.
    """
    _check(path, schema)
    name, files = _files(path)
    reader = _native._Reader(files, schema, _jobs(jobs, spare=1), bool(document))
    return _documents(reader, name, not os.path.isdir(name))


_read.__name__ = _read.__qualname__ = "read"
read: types.Read = _read  # typed by schema name: one overload per name (types.Read)


def validate_file(path: Path, schema: str = ROLLOUT, jobs: Optional[int] = None, max_errors: Optional[int] = None,
                  document: bool = False) -> Validation:
    """The verdicts on every document of a file or folder (see read() for the layout, folders and ``document``) without
    building a Python value: a Validation with the counts and the errors (FileError), on ``jobs``
    threads (every core by default) with the GIL released. ``max_errors`` caps the errors kept (the
    counts stay exact). A file that cannot be read raises OSError.
    """
    if max_errors is not None and (not isinstance(max_errors, int) or max_errors < 0):
        raise ValueError("max_errors is a non-negative int, or None for no limit")
    _check(path, schema)
    name, files = _files(path)
    single = not os.path.isdir(name)
    limit = (1 << 62) if max_errors is None else max_errors
    valid, invalid, errors = _native._validate_files(files, schema, _jobs(jobs), limit, bool(document))
    return Validation(valid, invalid, [FileError(name if single else os.fsdecode(file), line, e.pointer, e.message, e.id)
                                       for file, line, e in errors])


def convert(data: Data, source: str, target: str, style: Style = "compact", lossy: bool = False,
            metadata: Optional[Data] = None) -> Converted:
    """Converts one document (bytes or str) between schemas, as ``sediment-rows convert`` does, and
    returns Converted(data, losses):

    - from "atif" (Harbor's ATIF of any version, upgraded to the subset first) or "atif-v1.7" to
      "nemo-gym-rollout[.vN]", "nemo-gym-response.vN" or "nemo-gym-responses-create-params.vN". A row
      takes its metadata and reward from ``metadata`` (a JSON object {"metadata": ..., "reward": ...})
      when given, else from the trajectory's extension; it is of the version ``target`` names, else
      of the metadata's own;
    - from "nemo-gym-rollout[.vN]" to "atif-v1.7" (a row named without its version is read under the
      version it names).

    A value the target cannot hold fails the conversion unless ``lossy``, which drops it and lists it
    in ``losses``. Every failure raises ConvertError with every error; names that are no such pair
    raise ValueError.
    """
    _check(data, source, target)
    ok, *result = _native._convert(source, target, data, style, lossy, metadata)
    if not ok:
        raise ConvertError(*result)
    return Converted(*result)


def upgrade(data: Data, source: str, target: str, style: Style = "compact", lossy: bool = False) -> Converted:
    """Rewrites one document (bytes or str) of an older published version as version ``target`` of
    the same schema (``sediment-rows upgrade``; docs/upgrade.md says what each version adds and how it
    is derived). ``source`` is a versioned name, or "nemo-gym-rollout" for the version each row names;
    from "atif" (Harbor's ATIF, any version) the target is "atif-v1.7". Returns Converted(data,
    losses): with ``lossy``, a CI resolution whose new fields cannot be derived is dropped with its
    reward and listed. Raises ConvertError with every error, ValueError for names that are not two
    versions of one schema.
    """
    _check(data, source, target)
    ok, *result = _native._upgrade(source, target, data, style, lossy)
    if not ok:
        raise ConvertError(*result)
    return Converted(*result)


class Repair(NamedTuple):
    """One change repair() made: its id ("rows.repair.unknown_key", ...; docs/atif.md lists them), the JSON
    Pointer of the value in the document as it was read, what changed, and whether it drops or invents a
    value (made only with ``lossy=True``)."""

    id: str
    pointer: str
    message: str
    lossy: bool


class Repaired(NamedTuple):
    """What repair() made of one trajectory: ``text``, the repaired document (bytes; the input itself
    when it was valid), or None when it is refused; ``repairs``, each change; ``errors``, why it is
    refused (empty when ``text`` is valid)."""

    text: Optional[bytes]
    repairs: List[Repair]
    errors: List[Error]

    @property
    def ok(self) -> bool:
        """True when the document came out valid."""
        return self.text is not None


def repair(data: Data, schema: str = "atif", lossy: bool = False, style: Style = "compact") -> Repaired:
    """Repairs one ATIF trajectory (bytes or str) so that it is valid under ``schema``: "atif" (Harbor's
    model, any version) or "atif-v1.7" (NeMo Gym's subset), as ``sediment-rows repair`` does. A valid
    document comes back as given, with no repair. Lossless repairs are always made; the ones that drop or
    invent a value only with ``lossy``, and otherwise the document is refused with what each would do.
    Never raises for a bad document: a refusal is ``Repaired(None, [], errors)``. Raises ValueError for
    another schema.
    """
    text, repairs, errors = _native._repair(data, schema, lossy, style)
    return Repaired(text, [Repair(*r) for r in repairs], errors)


# ----- consumer profiles (docs/profiles.md) -------------------------------------------------------------

class ProfileError(ValueError):
    """Sediment refuses the export, with its own message ("hf-trl-sft-v1: invalid canonical row", "consumer export
    has 1 exact prompts in both train and eval; select a coherent cohort", ...), after "FILE:LINE: " for a row."""


class ProfileFinding(NamedTuple):
    """One thing verify() found: the file (a name in the folder, or a canonical file), its line (0: the file as a
    whole) and the error (its id ``rows.verify.*``, docs/errors.md; its pointer within the line's document)."""

    file: str
    line: int
    error: Error


class Verification(NamedTuple):
    """What verify() concluded: the manifest's profile (None when it names none), the data lines read, those
    lines by split, and the findings (none when the folder is the one Sediment wrote)."""

    profile: Optional[str]
    rows: int
    rows_by_split: Dict[str, int]
    findings: List[ProfileFinding]

    @property
    def ok(self) -> bool:
        """True when nothing was found."""
        return not self.findings


def _consumer_config(config: Union[Path, Dict[str, Any], None]) -> Optional[str]:
    """A consumer config's text: of a file, or of the config itself (a dict)."""
    if config is None:
        return None
    if isinstance(config, dict):
        return json.dumps(config)
    with open(config, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def verify(path: Path, canonical: Optional[List[Path]] = None, max_findings: int = 1000,
           consumer_config: Union[Path, Dict[str, Any], None] = None) -> Verification:
    """Checks that the folder ``path`` is the consumer profile folder Sediment wrote (``sediment-rows verify``):
    its files are the manifest's, with their SHA-256 and sizes; data and evidence lines align, each row_sha256 is
    its data line's digest; every line is in Sediment's line form and order and valid under its model; the
    counts, splits and prompts are as the manifest says. With ``canonical`` (canonical JSONL files), each
    evidence record's source_row_sha256 must name one of their rows and (SFT, DPO) each data row be that row's
    mapping. ``consumer_config`` (swe-bench-tasks-v1: the config's file, or the config as a dict): each
    configuration_digest must be its digest, and with ``canonical`` each row its canonical row's mapping.
    Returns a Verification; raises OSError when ``path`` is not a folder, ProfileError for a config that is
    not one."""
    folder = os.fsdecode(path)
    if not os.path.isdir(folder):
        raise NotADirectoryError(f"not a folder: {folder}")
    done = _native._verify(folder, [os.fsdecode(p) for p in canonical or []], max_findings, _consumer_config(consumer_config))
    if isinstance(done, str):
        raise ProfileError(done)
    profile, rows, by_split, findings = done
    return Verification(profile, rows, dict(by_split), [ProfileFinding(*f) for f in findings])


def write_profile(paths: List[Path], profile: str, out: Path, split: bool = True,
                  canonical_skipped: Optional[Dict[str, int]] = None, jobs: Optional[int] = None,
                  consumer_config: Union[Path, Dict[str, Any], None] = None,
                  fragmented: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
    """Writes the consumer profile folder ``out`` from canonical JSONL files (``sediment-rows convert --to
    PROFILE``): for hf-trl-sft-v1 and fireworks-sft-v1, sft-sample.v3 rows; for hf-trl-dpo-v2 and
    fireworks-dpo-v2, dpo-pair.v4 rows; for swe-bench-tasks-v1, swe-bench-task.v3 rows and ``consumer_config``
    (the operator's config: its file, or the config as a dict), with ``fragmented`` the counts of rows
    Sediment's bundle fragmented ({} when not given). Byte for byte what Sediment writes: split files (one data.jsonl without
    ``split``), the folder published at once (0700, files 0600). ``canonical_skipped`` is the counts Sediment's
    projection skipped, for the manifest ({} when not given); ``jobs`` the threads that map rows (one per core when
    not given; the folder is the same). Returns the manifest; with no rows, writes nothing.
    Raises ProfileError with Sediment's message where Sediment refuses the export, OSError when a file cannot be
    read or written, ValueError for a profile it cannot write."""
    counts = json.dumps(canonical_skipped if canonical_skipped is not None else {})
    if jobs is not None and jobs < 1:
        raise ValueError("jobs is 1 or more")
    ok, result, io = _native._write_profile([os.fsdecode(p) for p in paths], profile, os.fsdecode(out), split, counts, jobs or 0,
                                            _consumer_config(consumer_config),
                                            None if fragmented is None else json.dumps(fragmented))
    if not ok:
        raise OSError(result) if io else ProfileError(result)
    manifest: Dict[str, Any] = json.loads(result)
    return manifest
