"""Tokenizers of BLEU, on hand-made strings whose tokens are derived by applying
the Perl rules of mteval-v13a.pl (sub tokenization) and mteval-v14.pl (sub
tokenization_international) by hand; the rule used is named beside each case."""
import re
import unicodedata

import pytest
from hypothesis import given, strategies as st

from oracle.tokenizers import WHITE_SPACE, split_whitespace, tokenize

# (text, expected tokens, rule that decides it)
CASES_13A = [
    ("Hello, world!", ["Hello", ",", "world", "!"],
     "'!' (0x21) is in the class [ -&]; ',' follows the non-digit 'o': s/([^0-9])([.,])/$1 $2 /"),
    ('He said "yes" (maybe).', ["He", "said", '"', "yes", '"', "(", "maybe", ")", "."],
     "'\"' (0x22) and '(' ')' (0x28, 0x29) are in the punctuation class; '.' follows the non-digit ')'"),
    ("1,000.50", ["1,000.50"],
     "',' and '.' have digits on both sides: neither period/comma rule applies"),
    ("costs 5.", ["costs", "5", "."],
     "'.' follows a digit, but is followed by the padding space: s/([.,])([^0-9])/ $1 $2/"),
    ("a.b", ["a", ".", "b"], "'.' follows the non-digit 'a'"),
    ("3.b", ["3", ".", "b"], "'.' follows a digit but precedes the non-digit 'b'"),
    ("5,a", ["5", ",", "a"], "',' precedes the non-digit 'a'"),
    ("1-2", ["1", "-", "2"], "s/([0-9])(-)/$1 $2 /: dash after a digit"),
    ("a-2", ["a-2"], "'-' is not in the class and follows a letter: kept"),
    ("well-known", ["well-known"], "'-' between letters is kept"),
    ("it's", ["it's"], "the apostrophe 0x27 is not in the class (' -&' stops at 0x26)"),
    ("x&amp;y", ["x", "&", "y"], "s/&amp;/&/ then '&' (0x26) is in the class"),
    ("a&apos;b", ["a", "&", "apos", ";", "b"],
     "13a does not convert &apos;; '&' and ';' (0x3B, in :-@) are spaced out"),
    ('&quot;q&quot;', ['"', "q", '"'], 's/&quot;/"/ then \'"\' is in the class'),
    ("a&lt;b&gt;c", ["a", "<", "b", ">", "c"], "&lt; and &gt; become < and >, both in :-@"),
    ("<skipped>word", ["word"], "s/<skipped>//g"),
    ("hyphen-\nated", ["hyphenated"], "s/-\\n//g joins end-of-line hyphenation"),
    ("line1\nline2", ["line1", "line2"], "s/\\n/ /g joins lines"),
    ("{x}[y]~z^_`|", ["{", "x", "}", "[", "y", "]", "~", "z", "^", "_", "`", "|"],
     "{ | } ~ (0x7B-0x7E) and [ \\ ] ^ _ ` (0x5B-0x60) are in the class"),
    ("$5 #1 @me 50%", ["$", "5", "#", "1", "@", "me", "50", "%"], "$ # % (0x23-0x25) and @ (0x40) are in the class"),
    ("a+b=c/d*e:f;g?h", ["a", "+", "b", "=", "c", "/", "d", "*", "e", ":", "f", ";", "g", "?", "h"],
     "( -+ (0x28-0x2B), : -@ (0x3A-0x40) and / are in the class"),
    ("École.", ["École", "."], "non-ASCII letters are not in the class; '.' follows a non-digit"),
    ("a\x1fb", ["a\x1fb"], "U+001F is not Perl \\s (not White_Space): no split"),
    ("a\u00a0b", ["a", "b"], "U+00A0 is White_Space, matched by Perl \\s on character strings"),
    ("", [], "nothing"),
    ("   ", [], "only whitespace"),
]

CASES_INTL = [
    ("in 1990.", ["in", "1990."],
     "'.' has the digit '0' before it (rule 1 needs \\P{N}) and nothing after it (rule 2 needs a following char)"),
    ("in 1990. ", ["in", "1990", "."], "with a following space, s/(\\p{P})(\\P{N})/ $1 $2/ applies"),
    ("1,000 a,b", ["1,000", "a", ",", "b"], "',' between digits stays; after 'a' it is spaced by rule 1"),
    ("5€", ["5", "€"], "'€' is Sc, a symbol: s/(\\p{S})/ $1 /g"),
    ("a+b 1+2", ["a", "+", "b", "1", "+", "2"], "'+' is Sm: symbols are split even between digits"),
    ("x&amp;y", ["x", "&", "y"], "&amp; -> &, which is Po, spaced by rules 1 and 2"),
    ("it&apos;s", ["it", "'", "s"], "&apos; -> ' (Po), spaced by rule 1"),
    ("l'homme", ["l", "'", "homme"], "the apostrophe is Po: split, unlike 13a"),
    ("«Bonjour»", ["«", "Bonjour", "»"], "« is Pi, » is Pf"),
    ("3.14", ["3.14"], "digits on both sides"),
    ("3.x", ["3", ".", "x"], "'.' is followed by the non-digit 'x': rule 2"),
    ("¿Qué?", ["¿", "Qué", "?"], "¿ and ? are Po"),
    ("\u0663.\u0665", ["\u0663.\u0665"], "Arabic-Indic digits are Nd: the '.' between them stays"),
    ("a\u2028b", ["a", "b"], "s/\\p{Zl}/ /"),
    ("<skipped>ok", ["ok"], "s/<skipped>//g"),
    ("well-known", ["well", "-", "known"], "'-' is Pd: split unless digits on both sides"),
    ("1-2", ["1-2"], "'-' between digits stays"),
]

CASES_CHAR = [
    ("a b\tc", ["a", "b", "c"], "whitespace characters are removed"),
    ("ab\u3000c", ["a", "b", "c"], "U+3000 is White_Space"),
    ("a\x1cb", ["a", "\x1c", "b"], "U+001C is not White_Space: it is a character token"),
    ("e\u0301", ["e", "\u0301"], "code points, not grapheme clusters"),
    ("", [], "nothing"),
]

CASES_NONE = [
    ("  a  b\n c ", ["a", "b", "c"], "runs of whitespace separate, leading/trailing dropped"),
    ("Hello, world!", ["Hello,", "world!"], "punctuation stays attached"),
    ("a\u00a0b", ["a", "b"], "U+00A0 is White_Space"),
    ("a\x1fb", ["a\x1fb"], "U+001F is not White_Space (str.split would split here)"),
]


@pytest.mark.parametrize("text, expected, rule", CASES_13A, ids=[repr(c[0]) for c in CASES_13A])
def test_13a(text, expected, rule):
    assert tokenize(text, "13a") == expected, rule


@pytest.mark.parametrize("text, expected, rule", CASES_INTL, ids=[repr(c[0]) for c in CASES_INTL])
def test_intl(text, expected, rule):
    assert tokenize(text, "intl") == expected, rule


@pytest.mark.parametrize("text, expected, rule", CASES_CHAR, ids=[repr(c[0]) for c in CASES_CHAR])
def test_char(text, expected, rule):
    assert tokenize(text, "char") == expected, rule


@pytest.mark.parametrize("text, expected, rule", CASES_NONE, ids=[repr(c[0]) for c in CASES_NONE])
def test_none(text, expected, rule):
    assert tokenize(text, "none") == expected, rule


def test_lowercase_is_str_lower_before_tokenizing():
    assert tokenize("ÉCOLE Ab.", "13a", lowercase=True) == ["école", "ab", "."]
    # before tokenizing: the entity is matched after lowercasing
    assert tokenize("&AMP;", "13a", lowercase=True) == ["&"]
    assert tokenize("&AMP;", "13a") == ["&", "AMP", ";"]


def test_unknown_tokenizer_is_named():
    with pytest.raises(ValueError, match="'13b'"):
        tokenize("a", "13b")


def test_white_space_is_the_unicode_property():
    # PropList.txt White_Space, written out independently of the module
    expected = {0x9, 0xA, 0xB, 0xC, 0xD, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
                0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}
    assert set(WHITE_SPACE) == expected
    assert all(chr(c).isspace() for c in expected)
    # every Unicode space separator is White_Space
    assert {c for c in range(0x3001) if unicodedata.category(chr(c)) in ("Zs", "Zl", "Zp")} <= expected


def _split_by_loop(text):
    out, cur = [], []
    for ch in text:
        if ord(ch) in WHITE_SPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


WS_ALPHABET = st.sampled_from(list("ab. ,") + ["\t", "\n", "\x1c", "\x1f", "\u00a0", "\u2028", "\u3000", "\x0b", "\x85"])


@given(st.text(WS_ALPHABET, max_size=20))
def test_split_whitespace_matches_a_plain_loop(text):
    assert split_whitespace(text) == _split_by_loop(text)


TEXT = st.text(st.sampled_from(list("aZ9 .,-'&;\"()!?$€«»\t\n") + ["\u00e9", "\u0663"]), max_size=25)


@given(TEXT)
def test_tokens_never_hold_whitespace(text):
    for name in ("none", "13a", "intl", "char"):
        for tok in tokenize(text, name):
            assert tok and not any(ord(ch) in WHITE_SPACE for ch in tok)


@given(TEXT)
def test_13a_is_idempotent(text):
    once = tokenize(text, "13a")
    assert tokenize(" ".join(once), "13a") == once


@given(TEXT)
def test_char_tokens_are_the_non_space_characters(text):
    assert "".join(tokenize(text, "char")) == re.sub(r"[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]", "", text)


@given(st.text(alphabet=st.sampled_from(list("ab0 .,-&;!\"#$%()*+/:<=>?@[\\]^_`{|}~'\u00e9\u2014\n")), max_size=40))
def test_13a_punctuation_table_is_the_regex(text):
    """The translation table that splits off 13a's punctuation class does what the
    regex substitution of mteval-v13a.pl (s/([\\{-\\~\\[-\\`-\\&\\(-\\+\\:-\\@\\/])/ $1 /g) does."""
    from oracle.tokenizers import _13A_PUNCT, _13A_PUNCT_TABLE
    assert text.translate(_13A_PUNCT_TABLE) == _13A_PUNCT.sub(r" \1 ", text)
