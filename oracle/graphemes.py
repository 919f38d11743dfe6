"""Extended grapheme clusters (Unicode UAX #29), for ``unit=grapheme`` of the
character error rate; the break properties this module needs are in its tables."""
from __future__ import annotations

import unicodedata


# ------------------------------------------------------------ graphemes

_EXT_PICT = ((0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
             (0x2139, 0x2139), (0x2194, 0x21FF), (0x2300, 0x23FF), (0x24C2, 0x24C2), (0x25A0, 0x27BF),
             (0x2934, 0x2935), (0x2B00, 0x2BFF), (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297),
             (0x3299, 0x3299), (0x1F000, 0x1F1E5), (0x1F200, 0x1F3FA), (0x1F400, 0x1FAFF),
             (0x1FC00, 0x1FFFD))


def _gcb(ch: str) -> str:
    """Grapheme_Cluster_Break property (the subset used here)."""
    cp = ord(ch)
    if ch == "\r":
        return "CR"
    if ch == "\n":
        return "LF"
    if cp == 0x200D:
        return "ZWJ"
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return "RI"
    if cp == 0x200C or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:
        return "Extend"
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Mc"):
        return "Extend"
    if cat in ("Cc", "Zl", "Zp", "Cf"):
        return "Control"
    for lo, hi in _EXT_PICT:
        if lo <= cp <= hi:
            return "ExtPict"
    return "Other"


def graphemes(text: str) -> list[str]:
    """Extended grapheme clusters of ``text`` (the UAX #29 subset of the module docstring)."""
    out: list[str] = []
    prev = None
    ri_run = 0           # regional indicators in the current run
    emoji_state = 0      # 1: ExtPict Extend* seen; 2: ... followed by ZWJ
    for ch in text:
        cur = _gcb(ch)
        if prev is None:
            join = False
        elif prev == "CR" and cur == "LF":
            join = True
        elif prev in ("Control", "CR", "LF") or cur in ("Control", "CR", "LF"):
            join = False
        elif prev == "L" and cur in ("L", "V", "LV", "LVT"):
            join = True
        elif prev in ("LV", "V") and cur in ("V", "T"):
            join = True
        elif prev in ("LVT", "T") and cur == "T":
            join = True
        elif cur in ("Extend", "ZWJ"):
            join = True
        elif emoji_state == 2 and cur == "ExtPict":
            join = True
        elif prev == "RI" and cur == "RI":
            join = ri_run % 2 == 1
        else:
            join = False
        if join:
            out[-1] += ch
        else:
            out.append(ch)
        ri_run = ri_run + 1 if cur == "RI" else 0
        if cur == "ExtPict":
            emoji_state = 1
        elif cur == "Extend" and emoji_state == 1:
            emoji_state = 1
        elif cur == "ZWJ" and emoji_state == 1:
            emoji_state = 2
        else:
            emoji_state = 0
        prev = cur
    return out
