"""Parsing the canonical text of an exact value ('3/4', 'exp(-1/5)*(3/4)**(1/2)', 'log(2)')
back into a value, within bounds a hostile case file cannot get past: the text's
length, the nesting depth, and the size of a rational power."""
from __future__ import annotations

import ast
from fractions import Fraction

from .exact import Exact, Expr, as_expr, exp, log, power, product, total


# ------------------------------------------------------------------- parsing

def parse_exact(text: str) -> Exact:
    """Parse the canonical text form back ('3/4', 'exp(-1/5)*(3/4)**(1/2)', 'log(2)').

    Only integers, + - * / **, exp(), log() and sqrt() are accepted; anything else
    raises ValueError naming the offending piece.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"exact value must be a non-empty string, got {text!r}")
    if len(text) > MAX_EXACT_TEXT:
        raise ValueError(f"exact value of {len(text)} characters: longer than {MAX_EXACT_TEXT}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
        return _ev(tree.body, text)
    except SyntaxError as e:
        raise ValueError(f"cannot parse exact value {text[:80]!r}: {e.msg}") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"exact value {text[:80]!r}...: nested too deeply to parse") from None


# bounds of a parsed exact value, so that a hostile case file cannot make the parser
# expand 2**10**10: the text's length, and the size of a rational power's result
MAX_EXACT_TEXT = 100_000
MAX_POWER_BITS = 1 << 20


def _check_power_size(a, e: Fraction, text: str) -> None:
    """ValueError when a rational base to the exponent ``e`` would exceed MAX_POWER_BITS
    (closed-form bases are not expanded, only their rational parts)."""
    if not isinstance(a, Fraction):
        return
    bits = max(abs(a.numerator).bit_length(), a.denominator.bit_length())
    if bits > 1 and bits * abs(e.numerator) / e.denominator > MAX_POWER_BITS:
        raise ValueError(f"{text[:80]!r}: a power too large to expand exactly (over {MAX_POWER_BITS} bits)")


def _ev(node, text):
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return Fraction(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        raise ValueError(f"{text!r}: decimal literal {node.value!r} is not exact; write a fraction")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _ev(node.operand, text)
        return -as_expr(v) if isinstance(node.op, ast.USub) and isinstance(v, Expr) else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp):
        a, b = _ev(node.left, text), _ev(node.right, text)
        if isinstance(node.op, ast.Add):
            return total([a, b])
        if isinstance(node.op, ast.Sub):
            return total([a, product([Fraction(-1), b])])
        if isinstance(node.op, ast.Mult):
            return product([a, b])
        if isinstance(node.op, ast.Div):
            if isinstance(b, Fraction):
                if b == 0:
                    raise ValueError(f"{text!r}: division by zero")
                return product([a, 1 / b])
            return product([a, power(b, -1)])
        if isinstance(node.op, ast.Pow):
            if not isinstance(b, Fraction):
                raise ValueError(f"{text!r}: exponents must be rational")
            _check_power_size(a, b, text)
            return power(a, b)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords:
        arg = _ev(node.args[0], text)
        if node.func.id == "exp":
            return exp(arg)
        if node.func.id == "log":
            return log(arg)
        if node.func.id == "sqrt":
            return power(arg, Fraction(1, 2))
    raise ValueError(f"{text!r}: unsupported piece {ast.unparse(node)!r} (allowed: integers, + - * / **, exp, log, sqrt)")
