"""Places as IANA time zones: "What time is it in Tokyo?" -> ``timezone="Asia/Tokyo"``, 纽约 -> America/New_York.

A tool that takes a time zone (the MCP reference ``time`` server's ``get_current_time(timezone)``,
"IANA timezone name, e.g. 'America/New_York'") gets a zone name from a model, not the city the user
said. The zones come from the IANA database Python ships (:func:`zoneinfo.available_timezones`: its
``Region/City`` names give every city that names a zone, "Asia/Tokyo" for Tokyo), and from
:data:`.gazetteer.ZONES` for the cities and countries that name none (San Francisco, Beijing, Japan).

Source: the IANA time zone database (tz), as the Python standard library's ``zoneinfo`` exposes it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import gazetteer as gz

#: Words of a parameter that takes a time zone.
_SLOT_WORDS = frozenset({"timezone", "timezones", "tz", "zone", "tzname", "time_zone"})
_SLOT_DESC = re.compile(r"\b(?i:iana|time ?zones?|tz database)\b|\b(?:Africa|America|Asia|Atlantic|Australia|Europe|"
                        r"Indian|Pacific)/[A-Z][a-z]")
_ZONE = re.compile(r"^[A-Z][A-Za-z_-]+(?:/[A-Z][A-Za-z_-]+)+$|^UTC$|^Etc/")


@lru_cache(maxsize=1)
def _from_database() -> dict[str, str]:
    """``{"tokyo": "Asia/Tokyo", "new york": "America/New_York", ...}`` from the zone names Python knows."""
    try:
        import zoneinfo

        names = zoneinfo.available_timezones()
    except Exception:  # no tz database on this machine: the gazetteer's table still answers
        return {}
    out: dict[str, str] = {}
    for name in sorted(names):
        if "/" not in name or name.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/")):
            continue
        city = name.rsplit("/", 1)[1].replace("_", " ").lower()
        out.setdefault(city, name)
    return out


def zone_of(place: str) -> str | None:
    """The IANA zone of a city or country (English or Chinese), or a zone name given as is; else None.

    Example:
        >>> zone_of("Tokyo"), zone_of("San Francisco"), zone_of("东京"), zone_of("Europe/Paris")
        ('Asia/Tokyo', 'America/Los_Angeles', 'Asia/Tokyo', 'Europe/Paris')
    """
    name = place.strip()
    if _ZONE.match(name):
        return name
    english = {zh: en for en, zh in list(gz.CITIES.items()) + list(gz.COUNTRIES.items())}.get(name, name)
    english = english.split(",")[0].strip()
    low = english.lower()
    return gz.ZONES.get(low) or _from_database().get(low)


@lru_cache(maxsize=4096)
def takes_zone(name: str, description: str) -> bool:
    """Whether a parameter takes a time zone name: ``timezone``, ``source_timezone``, "IANA timezone name"
    (cached: the same parameters come with every request)."""
    words = set(re.split(r"[_\-\s]+", re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()))
    return bool(words & _SLOT_WORDS) or bool(_SLOT_DESC.search(description)) and "city" not in words


def as_zone(name: str, description: str, value: str) -> str | None:
    """``value`` (a place) as the IANA zone a time-zone parameter takes, or None when it is no such parameter or place."""
    if not isinstance(value, str) or not takes_zone(name, description):
        return None
    zone = zone_of(value)
    return zone if zone != value else None



def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """A time-zone argument whose value names no zone nor known place ("daylight saving", "Atlantis"): never sent.

    The argument is then missing, so the engine asks for it rather than call with a made-up zone.
    Returns None when the tool takes no zone or its value is a zone (the engine's calls stand).
    """
    props = tool.parameters.get("properties") or {}
    bad = [k for k, v in filled.arguments.items() if isinstance(v, str) and isinstance(props.get(k), dict)
           and takes_zone(k, str(props[k].get("description", ""))) and zone_of(v) is None]
    if not bad or filled.spread:
        return None
    args = {k: v for k, v in filled.arguments.items() if k not in bad}
    evidence = {k: v for k, v in filled.evidence.items() if k not in bad}
    required = tool.parameters.get("required") or []
    return [(args, evidence, list(filled.missing) + [k for k in bad if k in required])]
