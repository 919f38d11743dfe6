"""The golden files: schema, ids, tags, and every expected value re-derived."""
import copy
import json

import pytest

from conformance.casefiles.cases import (CaseFileError, case_files, check_cases, load_cases, load_file, rederive,
                                      printed_matches)
from oracle.parse import parse_exact


def test_every_golden_file_checks_clean():
    problems = check_cases()
    assert problems == [], "\n".join(map(str, problems))


def test_there_is_one_file_per_source_document_used():
    names = {p.name for p in case_files()}
    assert "000_28a8cb91ddee40ec.json" in names


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: f"{c.file}#{c.id}")
def test_case_rederives(case):
    assert rederive(case) == []


def test_a_wrong_expected_value_is_caught():
    case = next(c for c in load_cases() if c.metric == "exact_match" and c.expected["value"] == "1/2")
    bad = copy.deepcopy(case)
    bad.expected["value"] = "3/4"
    assert any(p.startswith("value:") for p in rederive(bad))
    bad = copy.deepcopy(case)
    bad.expected["stats"]["matches"] = 3
    assert any(p.startswith("stats.matches") for p in rederive(bad))
    bad = copy.deepcopy(case)
    bad.expected["printed"]["value"] = "0.501"
    assert any(p.startswith("printed.value") for p in rederive(bad))


def test_error_and_undefined_cases_check_their_class_and_reason():
    # check used to accept any refusal for an error(...) case, and any reason of undefined(...)
    refusing = next(c for c in load_cases() if str(c.expected["value"]).startswith("error(InputError: hypotheses[1]"))
    bad = copy.deepcopy(refusing)
    bad.expected["value"] = "error(ConventionError: hypotheses[1]: expected a string, got int)"
    assert any("expected a ConventionError" in p for p in rederive(bad))
    bad.expected["value"] = "error(InputError: references[7]: something else)"
    assert any("expected the reason" in p for p in rederive(bad))
    undefined = next(c for c in load_cases() if str(c.expected["value"]).startswith("undefined(recall of class 2"))
    bad = copy.deepcopy(undefined)
    bad.expected["value"] = "undefined(precision of class 9: never predicted)"
    assert any("expected the reason" in p for p in rederive(bad))
    accepted = next(c for c in load_cases() if c.metric == "exact_match" and c.expected["value"] == "1/2")
    bad = copy.deepcopy(accepted)
    bad.expected["value"] = "error(InputError: predictions)"
    assert any("the oracle accepts the case" in p for p in rederive(bad))


def test_printed_text_rule():
    x = parse_exact("exp(-1/5)")            # 0.818730...
    assert printed_matches(x, "0.8187", 4)
    assert not printed_matches(x, "0.8188", 4)


def _seed_file():
    return next(p for p in case_files() if p.name == "000_28a8cb91ddee40ec.json")


def _write(tmp_path, data, name="x.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return p


def test_malformed_files_are_named(tmp_path):
    with pytest.raises(CaseFileError, match=r"x.json: line 1"):
        load_file(_write(tmp_path, "{not json"))
    good = json.load(open(_seed_file()))
    bad = copy.deepcopy(good)
    bad["cases"][0]["id"] = "NOT-HEX"
    with pytest.raises(CaseFileError, match=r"cases/0/id"):
        load_file(_write(tmp_path, bad))
    bad = copy.deepcopy(good)
    bad["cases"][0]["expected"]["value"] = 0.5
    with pytest.raises(CaseFileError, match=r"cases/0/expected/value"):
        load_file(_write(tmp_path, bad))


def test_duplicate_ids_unknown_tags_and_knobs_are_reported(tmp_path):
    good = json.load(open(_seed_file()))
    good["cases"] = [c for c in good["cases"] if c["metric"] == "bleu"]
    bad = copy.deepcopy(good)
    bad["cases"][1]["id"] = bad["cases"][0]["id"]
    bad["cases"][2]["tags"] = ["no-such-tag"]
    bad["cases"][3]["conventions"] = {"tokeniser": "none"}
    problems = [str(p) for p in check_cases([_write(tmp_path, bad)])]
    assert any("is already used" in p for p in problems)
    assert any("no-such-tag" in p for p in problems)
    assert any("tokeniser" in p and "did you mean 'tokenizer'" in p for p in problems)


def test_a_case_citing_the_oracle_as_its_authority_is_reported(tmp_path):
    good = json.load(open(_seed_file()))
    good["cases"] = [c for c in good["cases"] if c["metric"] == "bleu"][:3]
    bad = copy.deepcopy(good)
    bad["cases"][0]["source"] = {"reference": "the oracle's outside=drop"}
    bad["cases"][1]["source"] = {"reference": "oracle/tagging.py bad-input table"}
    bad["cases"][2]["source"] = {"reference": "No published definition gives this value; this project's rule"}
    problems = [str(p) for p in check_cases([_write(tmp_path, bad)])]
    cited = [p for p in problems if "cites the oracle itself" in p]
    assert len(cited) == 2 and bad["cases"][2]["id"] not in " ".join(cited)
