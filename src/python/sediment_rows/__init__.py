"""Strict models of NeMo Gym rollout rows and ATIF trajectories, over the C++ library sediment-rows.

    import sediment_rows
    errors = sediment_rows.validate("nemo-gym-rollout.v2", line)   # [] when the row is valid
    for e in errors:
        print(e.pointer, e.message, e.id)
"""
from . import _native
from ._native import Error, __version__, schema_text, schemas, validate

__all__ = ["DecodeError", "EncodeError", "Error", "__version__", "dumps", "loads", "schema_text", "schemas", "validate"]


class DecodeError(ValueError):
    """A document that does not decode under its schema; ``errors`` lists every error (Error)."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid document")


class EncodeError(ValueError):
    """A Python value that is no valid document of its schema; ``errors`` lists every error (Error)."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid value")


def loads(schema, data):
    """Decodes one JSON document (bytes or str) strictly under ``schema`` into plain Python values.

    Objects become dicts in the schema's key order (free-form objects keep their own order); absent keys
    stay absent and null is None; integers are exact at any size; decimals are floats. A document with
    any error raises DecodeError, whose ``errors`` lists every one.
    """
    ok, value = _native._loads(schema, data)
    if not ok:
        raise DecodeError(value)
    return value


def dumps(schema, value, style="compact"):
    """Encodes Python values as one document of ``schema`` (bytes), in ``style``: "compact", or
    "sediment" (the bytes Sediment's exporter writes). The value must be a valid document: unknown keys,
    wrong types, NaN and values that are not JSON raise EncodeError, each error at its JSON Pointer.
    ``dumps(schema, loads(schema, line), "sediment")`` gives back a line Sediment wrote, byte for byte.
    """
    ok, result = _native._dumps(schema, value, style)
    if not ok:
        raise EncodeError(result)
    return result
