"""Stored responses of the Responses API: what ``previous_response_id`` continues.

The Responses API keeps each response (``store: true``, the default) so the next request can
send only what is new: ``previous_response_id`` plus the new input items (the results of the
function calls, the user's next message). The conversation is then the stored one's input,
its output, and the new input; the stored response's ``instructions`` are *not* carried over
(they apply to the request that sent them). ``store: false`` keeps nothing, and continuing
from such a response is the same 400 as continuing from an unknown id.

One :class:`ResponseStore` per :class:`~.server.MockLLM` (per server), bounded in count and in
bytes (:class:`~.limits.Limits` ``store_limit``, ``store_bytes``): the oldest responses are
dropped first, as a real service expires them. Each entry keeps the whole conversation that
led to it (a tuple that shares its items with the entry it continues), so a continuation
never depends on an ancestor that was dropped since; its size counts the JSON of what it
brought (its new input items and its output) plus a pointer (8 bytes) per item of that
tuple, so a thousand continuations of one long conversation cannot hold more than the cap.
An ``item_reference`` finds the items a stored response brought, through an index by item
id (one lookup, not a walk through every stored conversation); they go with that response.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass

from .errors import MockAPIError


@dataclass(frozen=True)
class StoredResponse:
    """One stored response: the response object, the conversation before it, and its size in bytes."""

    response: dict
    history: tuple[dict, ...]  # every input item that led to it (the chain's, then its own), then its output
    input_count: int  # how many of ``history`` are input items (the rest is the response's output)
    size: int
    first_new: int = 0  # where the items this response brought (its request's inputs, its output) start

    @property
    def own_items(self) -> tuple[dict, ...]:
        """The items this response brought: its request's new input items, then its output."""
        return self.history[self.first_new:]


def not_found(response_id: str) -> MockAPIError:
    """The API's 400 for a ``previous_response_id`` nobody stored (or stored with ``store: false``)."""
    return MockAPIError(f"Previous response with id '{response_id}' not found.", status=400,
                        param="previous_response_id", code="previous_response_not_found")


class ResponseStore:
    """Responses by id, oldest dropped first beyond ``limit`` entries or ``max_bytes`` of JSON.

    Args:
        limit: the most responses kept.
        max_bytes: the most bytes kept (each entry counted as the JSON of its response and new items,
            plus 8 bytes per item of the conversation it keeps).
    """

    def __init__(self, limit: int, max_bytes: int) -> None:
        self.limit, self.max_bytes, self.bytes = limit, max_bytes, 0
        self._entries: OrderedDict[str, StoredResponse] = OrderedDict()
        self._items: dict[str, dict[str, dict]] = {}  # item id -> {response id: item}, oldest response first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, response_id: object) -> bool:
        return response_id in self._entries

    def put(self, response: dict, inputs: tuple[dict, ...], new_items: int) -> None:
        """Keep ``response`` with the input items that led to it (``new_items`` of them sent by its request)."""
        output = tuple(response.get("output") or ())
        history = inputs + output
        first_new = len(inputs) - new_items
        size = sum(len(json.dumps(i, ensure_ascii=False)) for i in history[first_new:]) + len(
            json.dumps({k: v for k, v in response.items() if k != "output"}, ensure_ascii=False)) + 8 * len(history)
        entry = StoredResponse(response, history, len(inputs), size, first_new)
        with self._lock:
            self._forget(response["id"])
            self._entries[response["id"]] = entry
            self.bytes += size
            self._index(response["id"], entry)
            while len(self._entries) > 1 and (len(self._entries) > self.limit or self.bytes > self.max_bytes):
                self._forget(next(iter(self._entries)))

    def _index(self, response_id: str, entry: StoredResponse) -> None:
        for it in entry.own_items:
            item_id = it.get("id")
            if isinstance(item_id, str):
                self._items.setdefault(item_id, {})[response_id] = it

    def _forget(self, response_id: str) -> StoredResponse | None:
        """Drop ``response_id`` and its items from the index (the caller holds the lock)."""
        entry = self._entries.pop(response_id, None)
        if entry is None:
            return None
        self.bytes -= entry.size
        for it in entry.own_items:
            item_id = it.get("id")
            by_response = self._items.get(item_id) if isinstance(item_id, str) else None
            if by_response is not None:
                by_response.pop(response_id, None)
                if not by_response:
                    del self._items[item_id]
        return entry

    def get(self, response_id: str) -> StoredResponse:
        """The stored response ``response_id``.

        Raises:
            MockAPIError: 400 ``previous_response_not_found`` when it is not (or no longer) stored.
        """
        with self._lock:
            entry = self._entries.get(response_id)
        if entry is None:
            raise not_found(response_id)
        return entry

    def delete(self, response_id: str) -> bool:
        """Forget ``response_id``; True when it was stored."""
        with self._lock:
            return self._forget(response_id) is not None

    def item(self, item_id: str) -> dict | None:
        """The stored item (input or output) with ``id`` ``item_id`` (``item_reference``), or None.

        The item comes from the newest stored response that brought it; items of responses
        dropped from the store are gone with them.
        """
        with self._lock:
            by_response = self._items.get(item_id)
            return next(reversed(by_response.values())) if by_response else None

    def clear(self) -> None:
        """Forget every stored response."""
        with self._lock:
            self._entries.clear()
            self._items.clear()
            self.bytes = 0
