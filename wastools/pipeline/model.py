"""The validated model a build works from, kept in the store under the data it was read from.

A build whose data and tool did not change reads the model back in a few milliseconds;
otherwise the repository is validated whole, each unchanged file's own checks read from
the store (``repository.cache``), and the model kept for the next build.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.fingerprints import DataState, code_fingerprint, data_state, key
from ..core.model import Repository
from ..core.store import Store

if TYPE_CHECKING:
    from ..data import repository

MODEL = "model"


def load_repository(
    root: Path, store: Store, limits=None, data: DataState | None = None
) -> tuple[Repository | None, repository.Validation | None]:
    """The validated model and, when the data was validated now, what validation found (None
    when the model came from the store: it had no problems then). ``data``: the data's
    state, when the caller has just read it."""
    from ..data import repository
    from ..data.yamlio import DEFAULT_LIMITS

    limits = limits or DEFAULT_LIMITS
    data = data or data_state(root, limits.max_file_bytes)
    model_key = key(code_fingerprint(), data.fingerprint, asdict(limits))
    kept = store.get_object(MODEL, model_key)
    if isinstance(kept, Repository):
        return kept, None
    result = repository.validate(root, limits=limits, cache=store)
    if result.repository is None:
        return result.usable, result  # None, or the model without the scenarios that have errors
    model = result.repository
    if not result.errors:
        store.put_object(MODEL, model_key, model)
    return model, result
