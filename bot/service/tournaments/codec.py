"""Tournaments and their actions as JSON values and back, for the store (the snapshot and the outbox).

A record is an object tagged with its class (``"_t"``), an enum member one tagged with its enum (``"_e"``), a
mapping an object under ``"_d"``; tuples are lists. Only the classes named here are read back, so a stored
value can never build anything else.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

from bot.service.tournaments import lifecycle, model, standings

_RECORDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        model.Settings,
        model.Player,
        model.Result,
        model.Game,
        model.Tournament,
        standings.Standing,
        lifecycle.OpenMatch,
        lifecycle.Ping,
        lifecycle.PostPairings,
        lifecycle.PostStandings,
        lifecycle.Adjudicate,
        lifecycle.ResignMatch,
        lifecycle.AbortMatch,
        lifecycle.Podium,
        lifecycle.Cancelled,
    )
}
_ENUMS: dict[str, type[Enum]] = {
    cls.__name__: cls
    for cls in (model.Format, model.Status, model.DeadlineRule, model.ResultKind, model.TieBreak)
}


def encode(value: Any) -> Any:
    """`value` as plain JSON data (see the module doc)."""
    if isinstance(value, Enum):
        return {"_e": type(value).__name__, "v": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"_t": type(value).__name__}
        for field in dataclasses.fields(value):
            out[field.name] = encode(getattr(value, field.name))
        return out
    if isinstance(value, dict | tuple | list) and not isinstance(value, str):
        if isinstance(value, dict):
            return {"_d": {str(k): encode(v) for k, v in value.items()}}
        return [encode(v) for v in value]
    if hasattr(value, "items"):  # any other mapping (the options)
        return {"_d": {str(k): encode(v) for k, v in value.items()}}
    return value


def decode(data: Any) -> Any:
    """The value `encode` made `data` from (ValueError for a tag this module does not know)."""
    if isinstance(data, list):
        return tuple(decode(v) for v in data)
    if isinstance(data, dict):
        if "_e" in data:
            enum = _ENUMS.get(data["_e"])
            if enum is None:
                raise ValueError(f"unknown enum {data['_e']!r}")
            return enum(data["v"])
        if "_d" in data:
            return {k: _plain(decode(v)) for k, v in data["_d"].items()}
        cls = _RECORDS.get(data.get("_t", ""))
        if cls is None:
            raise ValueError(f"unknown record {data.get('_t')!r}")
        return cls(**{k: decode(v) for k, v in data.items() if k != "_t"})
    return data


def _plain(value: Any) -> Any:
    """Options keep lists as lists (a tuple would not compare equal to what the game reads back)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def dumps(tournament: model.Tournament) -> str:
    return json.dumps(encode(tournament), separators=(",", ":"), sort_keys=True)


def loads(text: str) -> model.Tournament:
    value = decode(json.loads(text))
    if not isinstance(value, model.Tournament):
        raise ValueError("not a tournament")
    return value
