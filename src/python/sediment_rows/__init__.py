"""Strict models of NeMo Gym rollout rows and ATIF trajectories, over the C++ library sediment-rows.

    import sediment_rows
    errors = sediment_rows.validate("nemo-gym-rollout.v2", line)   # [] when the row is valid
    for e in errors:
        print(e.pointer, e.message, e.id)
"""
from ._native import Error, __version__, schema_text, schemas, validate

__all__ = ["DecodeError", "Error", "__version__", "schema_text", "schemas", "validate"]


class DecodeError(ValueError):
    """A document that does not decode under its schema; ``errors`` lists every error (Error)."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid document")
