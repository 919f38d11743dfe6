"""Comparison of a golden case's expected JSON with the oracle's ``to_json()`` output,
shared by the oracle tests that check stats and parts leaf by leaf."""
from oracle import parse_exact
from oracle.certified import digits
from oracle.exact import is_rational, rational_value


def same_exact(expected: str, actual: str) -> bool:
    """Equal as exact values: same text, or same value (rationals exactly, closed forms to 40 certified digits)."""
    if expected == actual:
        return True
    if expected.startswith("undefined(") or actual.startswith("undefined("):
        return False
    try:
        e, a = parse_exact(expected), parse_exact(actual)
    except ValueError:
        return False
    if is_rational(e) and is_rational(a):
        return rational_value(e) == rational_value(a)
    return digits(e, 40) == digits(a, 40)


def same(expected, actual) -> bool:
    """Lists leaf by leaf, strings as exact values, anything else equal and of the same type."""
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            same(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, str) and isinstance(actual, str):
        return same_exact(expected, actual)
    return type(expected) is type(actual) and expected == actual
