"""Per adapter and metric: the knob values offered and the golden inputs skipped, with why
(issue: "a setting offered is a setting judged"). The listing is kept as a regression
snapshot (the pinned libraries), so a new skip, a dropped one or a changed offer shows as a
diff; and a skip that appears only under an offered value ("offered, then skipped where it
bites") fails unless the library cannot receive that input at all under that value, each
such case listed below with the reason."""
from __future__ import annotations

import pytest

from adapters import BUILTIN
from conformance.resolve import resolve_adapter
from conformance.reports.offered import adapter_listing

# (adapter, knob=value, words of the skip): the setting leaves the library no way to take
# the input, so nothing is hidden by not calling it
CANNOT_RECEIVE = {
    # label_set=union on an input with no sample: no class at all, and num_classes >= 1
    ("torchmetrics", "label_set=union", "needs num_classes >= 1"),
    ("torchmetrics-stateful", "label_set=union", "needs num_classes >= 1"),
    ("torcheval", "label_set=union", "needs num_classes >= 1"),
    # score rows: the classes are the score columns; 'the labels seen' is no class list it takes
    ("torchmetrics", "label_set=union", "classes are the score columns"),
    ("torchmetrics-stateful", "label_set=union", "classes are the score columns"),
    # indicator rows: every column is a class; a declared subset of columns has no argument
    ("torchmetrics", "label_set=union", "take every column"),
    ("torchmetrics-stateful", "label_set=union", "take every column"),
    # torcheval has no multilabel precision, recall, F1 or confusion matrix
    ("torcheval", "label_set=union", "has no multilabel"),
}


def _available():
    out = []
    for name, spec in BUILTIN.items():
        a = resolve_adapter(spec)
        ok, _ = a.available()
        if ok:
            out.append((name, a))
    return out


@pytest.mark.parametrize("name", [n for n in BUILTIN])
def test_offered_values_and_skips_are_listed(name, data_regression):
    a = resolve_adapter(BUILTIN[name])
    ok, why = a.available()
    if not ok:
        pytest.skip(why)
    rows = adapter_listing(a)
    listing = {}
    for r in rows:
        for cid, reason in r.skipped.items():
            assert reason and reason != "(no reason given)", f"{name} {r.metric} {cid}: a skip without a reason"
        listing[r.metric] = {
            "offered": {k: list(v) if isinstance(v, tuple) else v for k, v in r.offered.items()},
            "fixed": dict(r.fixed),
            "skipped": dict(sorted(r.skipped.items())),
        }
        hidden = [(f"{k}={v}", cid, why) for (k, v), bites in r.offered_then_skipped.items()
                  for cid, why in bites.items()
                  if not any(a_ == name and kv == f"{k}={v}" and words in why for a_, kv, words in CANNOT_RECEIVE)]
        assert hidden == [], f"{name} {r.metric}: offered, then skipped where it bites: {hidden}"
    data_regression.check(listing, basename=f"offered-{name}")
