# Type stubs of sediment_rows.dask.
from typing import Any, Dict, List, Optional, Union

from dask.delayed import Delayed

from . import Validation

def validate(paths: Union[str, List[str]], schema: str, blocksize: Union[int, str, None] = "64 MiB",
             max_errors: Optional[int] = None, storage_options: Optional[Dict[str, Any]] = None,
             compute: bool = True, **compute_kwargs: Any) -> Union[Validation, Delayed]: ...
