"""The oracle's full results on every golden input, pinned with pytest-regressions:
any change to a value, a statistic, a part or a signature shows up in review.
(The expected values of the cases themselves are hand-derived; this pins the rest.)"""
import pytest

from conformance.cases import load_cases
from oracle.registry import get_metric


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: c.id)
def test_oracle_output_is_pinned(case, data_regression):
    result = get_metric(case.metric).compute(case.inputs, case.conventions)
    data_regression.check(result.to_json(30), basename=f"{case.metric}-{case.id}")
