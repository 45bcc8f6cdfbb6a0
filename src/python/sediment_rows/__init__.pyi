# Type stubs of sediment_rows, for editors and type checkers.
import os
from typing import Any, Iterator, List, Literal, NamedTuple, Optional, Union

__version__: str

Style = Literal["compact", "sediment"]
Data = Union[bytes, str]
Path = Union[str, os.PathLike]

class Error:
    """One error: where (a JSON Pointer), why, and its stable id."""
    @property
    def id(self) -> str: ...
    @property
    def pointer(self) -> str: ...
    @property
    def message(self) -> str: ...

class DecodeError(ValueError):
    errors: List[Error]
    def __init__(self, errors: List[Error]) -> None: ...

class EncodeError(ValueError):
    errors: List[Error]
    def __init__(self, errors: List[Error]) -> None: ...

class ConvertError(ValueError):
    errors: List[Error]
    in_metadata: bool
    def __init__(self, errors: List[Error], in_metadata: bool = ...) -> None: ...

class Converted(NamedTuple):
    data: bytes
    losses: List[Error]

class Document(NamedTuple):
    line: int
    value: Any
    errors: List[Error]

class FileError(NamedTuple):
    file: str
    line: int
    pointer: str
    message: str
    id: str

class Validation(NamedTuple):
    valid: int
    invalid: int
    errors: List[FileError]
    @property
    def ok(self) -> bool: ...

def schemas() -> List[str]: ...
def schema_text(name: str) -> bytes: ...
def validate(schema: str, data: Data, engine: Literal["typed", "schema"] = "typed") -> List[Error]: ...
def loads(schema: str, data: Data) -> Any: ...
def dumps(schema: str, value: Any, style: Style = "compact") -> bytes: ...
def read(path: Path, schema: str, jobs: Optional[int] = None) -> Iterator[Document]: ...
def validate_file(path: Path, schema: str, jobs: Optional[int] = None, max_errors: Optional[int] = None) -> Validation: ...
def convert(source: str, target: str, data: Data, style: Style = "compact", lossy: bool = False,
            metadata: Optional[Data] = None) -> Converted: ...
def upgrade(source: str, target: str, data: Data, style: Style = "compact", lossy: bool = False) -> Converted: ...
