"""The oracle's full results on every golden input, pinned with pytest-regressions:
any change to a value, a statistic, a part, a signature or an error message shows
up in review. (The expected values of the cases themselves are hand-derived; this
pins the rest.)"""
import pytest

from conformance.casefiles.cases import load_cases
from oracle.conventions import ConventionError, InputError
from oracle.registry import get_metric


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: c.id)
def test_oracle_output_is_pinned(case, data_regression):
    try:
        out = get_metric(case.metric).compute(case.inputs, case.conventions).to_json(30)
    except (InputError, ConventionError) as e:
        assert str(case.expected["value"]).startswith("error("), e
        out = {"refused": f"{type(e).__name__}: {e}"}
    data_regression.check(out, basename=f"{case.metric}-{case.id}")
