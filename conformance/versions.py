"""Library versions: the ranges an adapter supports, and the ranges its profiles and
known failures hold for (PEP 440 specifiers, read with ``packaging``, which pytest
brings)."""
from __future__ import annotations

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version


class VersionRangeError(ValueError):
    """A range that is not a PEP 440 specifier set."""


def specifier(spec: str) -> SpecifierSet:
    try:
        return SpecifierSet(spec or "")
    except InvalidSpecifier as e:
        raise VersionRangeError(f"{spec!r} is not a version range (PEP 440, e.g. '>=2.0,<3'): {e}") from None


def parse_version(version: str) -> Version | None:
    """The version, or None for 'not installed' and other non-versions."""
    try:
        return Version(str(version))
    except InvalidVersion:
        return None


def in_range(version: str, spec: str | None) -> bool:
    """``version`` lies in ``spec`` (an empty or missing range holds for every version;
    pre-releases count as the release they precede)."""
    if not spec:
        return True
    v = parse_version(version)
    if v is None:
        return False
    return specifier(spec).contains(v, prereleases=True)


def split_entries(entries: list, version: str) -> tuple[list, list]:
    """(the known failures whose ``versions`` range holds ``version``, the others)."""
    inside, outside = [], []
    for e in entries:
        (inside if in_range(version, getattr(e, "versions", None)) else outside).append(e)
    return inside, outside


def sort_versions(versions) -> list[str]:
    """Release order; a non-version at the end, in the given order."""
    keyed = [(parse_version(v), i, v) for i, v in enumerate(versions)]
    return [v for p, i, v in sorted(keyed, key=lambda t: (t[0] is None, t[0] or Version("0"), t[1]))]
