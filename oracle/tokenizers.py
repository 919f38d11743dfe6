"""Tokenizers of BLEU: none, 13a, intl, char.

``tokenize(text, name, lowercase=False) -> list[str]``. Lowercasing (the
``case`` knob of BLEU) is ``str.lower()`` applied to the whole text *before*
tokenizing, for every tokenizer (this is what sacrebleu does; mteval does
something else, see below).

Whitespace
----------
Every tokenizer ends by splitting on runs of **Unicode White_Space**
(PropList.txt: U+0009..U+000D, U+0020, U+0085, U+00A0, U+1680,
U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), dropping empty
fields. This is the set Perl's ``\\s`` matches on character strings, so it is
what mteval's ``split /\\s+/`` uses on its UTF-8 input (Perl >= 5.18; older
Perls leave out U+000B). It is also the Unicode standard's own definition.
Python's ``str.split()`` splits on ``str.isspace()``, which is this set
**plus U+001C..U+001F** (the information separators, bidi class B/S). So
``"a\\x1fb"`` is one token here and in mteval, two tokens for ``str.split``
(and therefore for sacrebleu, whose tokenizers end with ``str.split``). The
fast path uses ``str.split`` when the text holds none of the characters on
which the two sets differ (checked at first use against the running Python).

13a (mteval-v13a.pl, ``sub tokenization``; moses-smt/mosesdecoder
scripts/generic/mteval-v13a.pl), applied in this order:
  1. delete ``<skipped>``; delete ``-\\n`` (end-of-line hyphenation);
     ``\\n`` -> space;
  2. ``&quot;`` -> ``"``, ``&amp;`` -> ``&``, ``&lt;`` -> ``<``,
     ``&gt;`` -> ``>`` (in this order; ``&apos;`` is left alone);
  3. pad the text with one space on each side;
  4. ``s/([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])/ $1 /g``: space out the ASCII
     punctuation ``{|}~ [\\]^_` !"#$%& ()*+ :;<=>? @ /`` (not ``' - . ,``);
  5. ``s/([^0-9])([\\.,])/$1 $2 /g``: period and comma after a non-digit;
  6. ``s/([\\.,])([^0-9])/ $1 $2/g``: period and comma before a non-digit;
  7. ``s/([0-9])(-)/$1 $2 /g``: dash after a digit;
  8. collapse ``\\s+``, strip; split.
Rule 4 here leaves out the space itself (the Perl class includes it): a space
padded with spaces is still whitespace, and every character next to a space
stays next to a space, so rules 5-8 see the same neighbours.
Where sacrebleu's port differs from the Perl:
  - sacrebleu calls ``sent.rstrip()`` before tokenizing, so a trailing
    ``-\\n`` survives: Perl ``"a-\\n"`` -> ``["a"]``, sacrebleu ``["a-"]``;
  - its final split is ``str.split`` (U+001C..U+001F split; see above);
  - mteval's own lowercasing (on unless ``-c``) is ASCII-only
    (``tr/[A-Z]/[a-z]/``) and runs after entity replacement, so ``"É"`` stays
    ``"É"`` and ``"&QUOT;"`` stays 3 tokens; the ``case=lower`` knob here is
    ``str.lower()`` before tokenizing (sacrebleu's ``lowercase=True``).
  - mteval's SGML reader first collapses ``[\\s\\n\\r]+`` to one space in each
    segment, so its ``-\\n`` rule never fires on SGML input; this module
    tokenizes the segment text as given (as the XML reader and sacrebleu do).

intl (mteval-v14.pl, ``sub tokenization_international``):
  1. delete ``<skipped>``; U+2028 (``\\p{Zl}``) -> space;
  2. ``&quot;`` ``&amp;`` ``&lt;`` ``&gt;`` ``&apos;`` -> ``" & < > '``;
  3. ``s/(\\P{N})(\\p{P})/$1 $2 /g`` then ``s/(\\p{P})(\\P{N})/ $1 $2/g``:
     punctuation is spaced out unless it has a digit on both sides;
  4. ``s/(\\p{S})/ $1 /g``: symbols are spaced out;
  5. collapse ``\\p{Z}+``, strip; split on ``\\s+``.
Categories are those of the running Python's ``unicodedata``
(Unicode ``unicodedata.unidata_version``). Note: a number followed by a
final period keeps the period (``"1990."`` is one token), as in the Perl.
Where sacrebleu's port differs: it skips steps 1-2 (``"&amp;"`` is one token
``&`` in mteval, three tokens ``& amp ;`` in sacrebleu); it calls
``rstrip()`` first, so trailing whitespace no longer splits off a final
punctuation mark after a digit (``"1990. "``: mteval ``["1990", "."]``,
sacrebleu ``["1990."]``); it uses the ``regex`` module's Unicode tables
(version may differ); and it splits with ``str.split``. mteval-v14 lowercases with Perl ``lc`` unless ``-c``.
Perl's ``split /\\s+/`` keeps a leading empty field when the text starts with
non-``\\p{Z}`` whitespace such as a tab; that field is dropped here (the
SGML reader never lets a tab reach the tokenizer).

char (sacrebleu ``TokenizerChar``): every character that is not White_Space
is a token; whitespace is removed (sacrebleu joins the characters with spaces
and splits with ``str.split``, so it also drops U+001C..U+001F).

none: split on White_Space runs.
"""
from __future__ import annotations

import re
import sys
import unicodedata

__all__ = ["tokenize", "split_whitespace", "tokenize_none", "tokenize_13a", "tokenize_intl",
           "tokenize_char", "TOKENIZERS", "WHITE_SPACE"]

WHITE_SPACE = frozenset(
    [0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
    + list(range(0x09, 0x0E)) + list(range(0x2000, 0x200B)))

_WS_CLASS = "\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
_WS_RUN = re.compile(f"[{_WS_CLASS}]+")

_guard = None  # characters on which str.split and White_Space disagree


def _split_guard():
    global _guard
    if _guard is None:
        every = "".join(map(chr, range(sys.maxunicode + 1)))
        isspace = {ord(ch) for ch in re.findall(r"\s", every)}  # re's \s on str is str.isspace()
        differ = sorted(isspace.symmetric_difference(WHITE_SPACE))
        _guard = re.compile("[" + "".join(f"\\U{c:08x}" for c in differ) + "]") if differ else None
        if _guard is None:
            _guard = re.compile("(?!)")  # never matches
    return _guard


def split_whitespace(text: str) -> list[str]:
    """Split on runs of Unicode White_Space, dropping empty fields."""
    if _split_guard().search(text) is None:
        return text.split()
    return [t for t in _WS_RUN.split(text) if t]


def tokenize_none(text: str) -> list[str]:
    return split_whitespace(text)


# ------------------------------------------------------------------------ 13a

_13A_PUNCT = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")
# the same rule as a translation table: the class holds single characters, each replaced by
# itself between spaces, so str.translate (one C-level pass) does what _13A_PUNCT.sub(r" \1 ")
# does (tests/test_tokenizers.py checks both on generated text)
_13A_PUNCT_TABLE = {c: f" {chr(c)} " for c in range(128) if _13A_PUNCT.fullmatch(chr(c))}
_13A_PC_AFTER_NONDIGIT = re.compile(r"([^0-9])([\.,])")
_13A_PC_BEFORE_NONDIGIT = re.compile(r"([\.,])([^0-9])")
_13A_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def tokenize_13a(text: str) -> list[str]:
    """mteval-v13a.pl ``sub tokenization`` (see the module docstring for the rules)."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    text = f" {text} ".translate(_13A_PUNCT_TABLE)
    text = _13A_PC_AFTER_NONDIGIT.sub(r"\1 \2 ", text)
    text = _13A_PC_BEFORE_NONDIGIT.sub(r" \1 \2", text)
    text = _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    return split_whitespace(text)


# ----------------------------------------------------------------------- intl

_intl: dict = {}   # True (ASCII text) / False (any text) -> the three compiled regexes


def _classes(limit: int) -> dict:
    """{"P": class body, "S": ..., "N": ...}: the code points below ``limit`` whose Unicode
    general category starts with P, S or N, as ranges of a regex character class, read off
    runs of one letter in the string of every code point's category letter."""
    cats = "".join([unicodedata.category(chr(c))[0] for c in range(limit)])
    out = {}
    for letter in "PSN":
        out[letter] = "".join(f"\\U{m.start():08x}" if m.end() - m.start() == 1
                              else f"\\U{m.start():08x}-\\U{m.end() - 1:08x}"
                              for m in re.finditer(f"{letter}+", cats))
    return out


def _intl_regexes(ascii_text: bool = False):
    """mteval-v14's three substitutions for the international tokenizer. Text that is all
    ASCII gets the same regexes over the ASCII classes (the other code points cannot
    occur in it, so both match alike): the full classes take about a second to build, and
    only text beyond ASCII waits for them."""
    hit = _intl.get(ascii_text)
    if hit is None:
        c = _classes(128 if ascii_text else sys.maxunicode + 1)
        P, S, N = c["P"], c["S"], c["N"]
        hit = _intl[ascii_text] = (re.compile(f"([^{N}])([{P}])"), re.compile(f"([{P}])([^{N}])"),
                                   re.compile(f"([{S}])"))
    return hit


def tokenize_intl(text: str) -> list[str]:
    """mteval-v14.pl ``sub tokenization_international`` (see the module docstring)."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    text = text.replace("\u2028", " ")
    if "&" in text:
        text = (text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                .replace("&gt;", ">").replace("&apos;", "'"))
    punct_after, punct_before, symbol = _intl_regexes(text.isascii())
    text = punct_after.sub(r"\1 \2 ", text)
    text = punct_before.sub(r" \1 \2", text)
    text = symbol.sub(r" \1 ", text)
    return split_whitespace(text)


# ----------------------------------------------------------------------- char

def tokenize_char(text: str) -> list[str]:
    """Every character that is not Unicode White_Space (sacrebleu's char tokenizer)."""
    return list(_WS_RUN.sub("", text))


TOKENIZERS = {"none": tokenize_none, "13a": tokenize_13a, "intl": tokenize_intl, "char": tokenize_char}

# One short text per rule of each tokenizer (the rules of the module docstring), on which
# that rule changes the tokens: ``oracle/separators/bleu.py`` makes each a probe whose
# reference is the text as that tokenizer splits it, so a library that gets one rule wrong
# shows it on an input of one rule.
RULE_TEXTS = {
    "13a": (("skipped", "a<skipped>b"), ("end-of-line-hyphen", "co-\noperate"), ("newline", "a\nb"),
            ("entities", "&quot;x&quot; &amp; &lt;y&gt;"), ("apos-entity-kept", "it&apos;s"),
            ("ascii-punctuation", "a(b)c[d]e!f?"), ("period-comma-after-letter", "end. then, so"),
            ("period-comma-between-digits", "3.50 and 1,000"), ("dash-after-digit", "1990-91"),
            ("dash-between-letters", "well-known"), ("apostrophe", "don't"),
            ("information-separator", "a\x1fb"), ("no-break-space", "a\xa0b"),
            ("non-ascii-punctuation", "\u00aba\u00bb \u201cb\u201d"), ("final-period-after-digit", "in 1990.")),
    "intl": (("punctuation-between-letters", "a,b"), ("punctuation-between-digits", "3,50"),
             ("number-final-period", "in 1990."), ("symbols", "a$b+c"), ("dash-between-letters", "well-known"),
             ("unicode-punctuation", "\u00aba\u00bb \u201cb\u201d"), ("entities", "&quot;a&quot; it&apos;s"),
             ("line-separator", "a\u2028b"), ("skipped", "a<skipped>b"), ("apostrophe", "don't")),
    "char": (("cjk", "\u6771\u4eac\u90fd"), ("combining-mark", "e\u0301t\u00e9"), ("punctuation", "a,b.")),
    "none": (("tab", "a\tb"), ("ideographic-space", "a\u3000b"), ("attached-punctuation", "end. then, so")),
}


def tokenize(text: str, name: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokens of ``text`` under tokenizer ``name``; ``lowercase`` applies str.lower() first."""
    try:
        fn = TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; tokenizers are {', '.join(TOKENIZERS)}") from None
    return fn(text.lower() if lowercase else text)
