"""Readers of the field's evaluation file formats into the oracle's metric inputs.

| format | files (claim keys) | gives (metric inputs) |
| --- | --- | --- |
| text | hyp, ref (repeatable: one file per reference set) | BLEU: hypotheses, references (list per segment); WER/CER/MER/WIL/WIP: references, hypotheses (one ref file) |
| conll | conll (+ gold_col, pred_col, token_col) | tagging: gold, pred, tokens (sentences of tags) |
| trec | qrels, run | ranking: qrels {q: {d: grade}}, run {q: {d: score text}} (``oracle.trec``) |
| coco | results, annotations | CIDEr: candidates, references; BLEU: hypotheses, references |
| vqa | results, annotations (+ questions) | vqa_accuracy: predictions, answers |
| squad | dataset, predictions | exact_match, squad_f1: predictions (null when missing), references |
| labels | truth, pred | classification: y_true, y_pred (one label per line) |

Conventions of each format
- text: one segment per line, UTF-8; the line break (``\\n``, ``\\r\\n``) is
  removed, nothing else (leading spaces stay: a tokenizer knob decides).
  Every reference file must have as many lines as the hypothesis file
  (sacrebleu's rule for reference streams).
- conll: whitespace-separated columns, one token per line, a blank line
  between sentences; ``-DOCSTART-`` lines are skipped (CoNLL-2003). Columns
  are 0-based and may be negative (from the end); defaults: tokens column 0,
  gold ``-2``, predicted ``-1`` (conlleval.pl reads the last two columns as
  gold and guessed tags). Every token line of a file needs the same number
  of columns (conlleval: "unexpected number of features").
- trec: ``qid iter docno rel`` and ``qid Q0 docno rank score tag``; scores are
  kept as text (read exactly); see ``oracle.trec``.
- coco: results ``[{"image_id", "caption"}]`` (one caption per image, as the
  COCO caption evaluation requires), annotations ``{"annotations": [{"image_id",
  "caption"}]}``; images are those of the results, in results order (COCO's
  ``imgIds = cocoRes.getImgIds()``); captions are passed as written (the COCO
  code first runs the PTB tokenizer, which is outside this project: give
  tokenized captions for a like-for-like figure).
- vqa: annotations ``{"annotations": [{"question_id", "answers": [{"answer"}]}]}``
  (ten answers in VQA v2), results ``[{"question_id", "answer"}]``; questions
  are those of the results, in results order (``vqaRes``); the questions file,
  when given, must list every result's question.
- squad: dataset ``{"data": [{"paragraphs": [{"qas": [{"id", "answers": [{"text"}]}]}]}]}``
  (v1.1 and v2.0), predictions ``{qid: text}``; items in dataset order; a
  question without prediction is null (a missing prediction: the ``missing``
  knob decides).
- labels: one label per line; a line of digits (optionally signed) is an int
  label, any other line a string label.

Errors are ``FormatError`` (an ``InputError``) naming the file and line, or
the file and JSON path: ``results.json: [3].image_id: expected an integer or a string``.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from oracle.conventions import InputError, nearest

__all__ = ["FormatError", "FORMATS", "FORMAT_METRICS", "FILE_KEYS", "read_lines", "read_text", "read_conll",
           "read_trec", "read_coco", "read_vqa", "read_squad", "read_labels", "load_inputs", "guess_format",
           "detect_scheme"]


class FormatError(InputError):
    """A file that does not parse as its format; the message names the file and line or JSON path."""

    def __init__(self, path, where, message: str):
        self.path, self.where = str(path), where
        loc = f"{path}:{where}" if isinstance(where, int) else (f"{path}: {where}" if where else f"{path}")
        super().__init__(f"{loc}: {message}", item=str(path))


# format -> (required file keys, optional keys)
FORMATS = {
    "text": (("hyp", "ref"), ()),
    "conll": (("conll",), ("gold_col", "pred_col", "token_col")),
    "trec": (("qrels", "run"), ()),
    "coco": (("results", "annotations"), ()),
    "vqa": (("results", "annotations"), ("questions",)),
    "squad": (("dataset", "predictions"), ()),
    "labels": (("truth", "pred"), ()),
}
FILE_KEYS = ("hyp", "ref", "conll", "qrels", "run", "results", "annotations", "questions", "dataset",
             "predictions", "truth", "pred")
OPTION_KEYS = ("gold_col", "pred_col", "token_col")

from oracle.registry import ranking_metrics  # noqa: E402

_RANKING = ranking_metrics()
FORMAT_METRICS = {
    "text": ("bleu", "chrf", "ter", "wer", "cer", "mer", "wil", "wip", "rouge_n", "rouge_l", "rouge_lsum", "rouge_s"),
    "conll": ("token_accuracy", "entity_f1", "entity_precision", "entity_recall"),
    "trec": _RANKING,
    "coco": ("cider_d", "cider", "bleu"),
    "vqa": ("vqa_accuracy",),
    "squad": ("exact_match", "squad_f1"),
    "labels": ("accuracy", "balanced_accuracy", "precision", "recall", "f1"),
}


# ------------------------------------------------------------------ helpers

_STDIN: list = []   # standard input's bytes, read once: a second measure reads the same text


def _read_text(path, keep_bom: bool = False) -> str:
    """A file's text (``-``: standard input, as sacrebleu and trec_eval take it)."""
    from oracle.input_checks import device_kind
    if str(path) == "-":
        if not _STDIN:
            _STDIN.append(sys.stdin.buffer.read())
        data, path = _STDIN[0], "(standard input)"
    else:
        kind = device_kind(path)
        if kind:
            raise FormatError(path, None, f"{kind}, not a file: not read (it may never end)")
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise FormatError(path, None, f"cannot read: {e.strerror}") from None
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")   # utf-8-sig: a leading byte-order mark goes
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise FormatError(path, line, f"not UTF-8 text ({e.reason})") from None


def read_lines(path, reading: str = "plain", notes: list | None = None) -> list[str]:
    """The segments of a UTF-8 text file under a reading (``conformance.readings``: the
    default ``plain`` is the lines without their breaks; a final empty line is not a
    segment). Lines the reading drops are said in ``notes``."""
    from conformance.readings import reading as _reading, segments
    how = _reading(reading)
    lines, dropped = segments(_read_text(path, keep_bom=how.keep_bom), how)
    if dropped and notes is not None:
        shown = ", ".join(map(str, dropped[:10])) + (" ..." if len(dropped) > 10 else "")
        notes.append(f"{path}: {len(dropped)} line(s) of at most one character not read, as {reading} does "
                     f"(line {shown})")
    return lines


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_keys(pairs):
    """An object's members, refused when a key repeats (``json`` keeps the last silently: a
    predictions file answering one question twice would be scored on either answer)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _DuplicateKey(dup)
    return out


def _read_json(path):
    text = _read_text(path)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as e:
        raise FormatError(path, None, f"the key {json.dumps(e.args[0], ensure_ascii=False)} appears twice in one "
                                      "object (JSON readers keep either one)") from None
    except json.JSONDecodeError as e:
        raise FormatError(path, e.lineno, f"not JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise FormatError(path, None, "JSON nested too deeply") from None


def _expect(cond: bool, path, where: str, message: str) -> None:
    if not cond:
        raise FormatError(path, where, message)


def _as_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


# ------------------------------------------------------------------ text

def read_text(hyp, refs, metric: str = "bleu", reading: str | None = None, notes: list | None = None) -> dict:
    """Hypothesis and reference files, one segment per line, read as ``reading`` reads them
    (``conformance.readings``; by default as the measure's anchor tool does).

    BLEU and chrF: ``{"hypotheses": [h_i], "references": [[r_i from each reference file]]}``;
    the error rates: ``{"references": [r_i], "hypotheses": [h_i]}`` (one reference file)."""
    from conformance.readings import default_reading
    reading = reading or default_reading(metric)
    refs = _as_list(refs)
    if not refs:
        raise InputError("ref: no reference file", item="ref")
    hyps = read_lines(hyp, reading, notes)
    streams = [read_lines(r, reading, notes) for r in refs]
    for r, s in zip(refs, streams):
        if len(s) != len(hyps):
            raise FormatError(r, None, f"{len(s)} lines but the hypotheses "
                                       f"{'on standard input' if str(hyp) == '-' else 'file ' + str(hyp)} have {len(hyps)}")
    if metric in ("bleu", "sentence_bleu", "chrf", "ter", "rouge_n", "rouge_l", "rouge_lsum", "rouge_s"):
        return {"hypotheses": hyps, "references": [list(x) for x in zip(*streams)] if hyps else []}
    if len(streams) != 1:
        raise InputError(f"ref: {metric} takes one reference file, {len(streams)} given", item="ref")
    return {"references": streams[0], "hypotheses": hyps}


# ------------------------------------------------------------------ conll

def _column(text, path, what: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise FormatError(path, None, f"{what}: {text!r} is not a column number") from None


def read_conll(path, gold_col=-2, pred_col=-1, token_col=0) -> dict:
    """``{"gold", "pred", "tokens"}``: sentences of the chosen columns of a CoNLL file."""
    gold_col, pred_col, token_col = (_column(c, path, w) for c, w in
                                     ((gold_col, "gold_col"), (pred_col, "pred_col"), (token_col, "token_col")))
    gold, pred, tokens = [], [], []
    cur: tuple = ([], [], [])
    width = None
    for lineno, line in enumerate(read_lines(path), start=1):
        fields = line.split()
        if not fields:
            if cur[0]:
                gold.append(cur[0]), pred.append(cur[1]), tokens.append(cur[2])
                cur = ([], [], [])
            continue
        if fields[0] == "-DOCSTART-":
            continue
        if width is None:
            width = len(fields)
            for c, what in ((gold_col, "gold_col"), (pred_col, "pred_col"), (token_col, "token_col")):
                if not -width <= c < width:
                    raise FormatError(path, lineno, f"{what} {c}: the line has {width} columns")
        elif len(fields) != width:
            raise FormatError(path, lineno, f"{len(fields)} columns, but the first token line has {width}")
        cur[0].append(fields[gold_col])
        cur[1].append(fields[pred_col])
        cur[2].append(fields[token_col])
    if cur[0]:
        gold.append(cur[0]), pred.append(cur[1]), tokens.append(cur[2])
    if not gold:
        raise FormatError(path, None, "no token line (an empty CoNLL file)")
    return {"gold": gold, "pred": pred, "tokens": tokens}


# ------------------------------------------------------------------ trec

def read_trec(qrels, run) -> dict:
    """``{"qrels", "run"}`` from TREC files (scores kept as their exact text)."""
    from oracle.trec import read_qrels, read_run
    return {"qrels": read_qrels(qrels), "run": read_run(run, duplicates="keep")}


# ------------------------------------------------------------------ coco

def _id(x, path, where: str):
    _expect(isinstance(x, (int, str)) and not isinstance(x, bool), path, where,
            f"expected an integer or a string, got {type(x).__name__}")
    return x


def _text(x, path, where: str) -> str:
    _expect(isinstance(x, str), path, where, f"expected a string, got {type(x).__name__}")
    return x


def _records(data, path, where: str) -> list:
    _expect(isinstance(data, list), path, where or "(top level)", f"expected a list, got {type(data).__name__}")
    for i, r in enumerate(data):
        _expect(isinstance(r, dict), path, f"{where}[{i}]", f"expected an object, got {type(r).__name__}")
    return data


def _listed(path, key: str) -> list:
    """The records of the list under ``key`` of a JSON file holding an object."""
    data = _read_json(path)
    article = "an" if key[0] in "aeiou" else "a"
    _expect(isinstance(data, dict) and key in data, path, "(top level)",
            f"expected an object with {article} {key!r} list")
    return _records(data[key], path, key)


def _require(record: dict, keys, path, where: str) -> None:
    for k in keys:
        _expect(k in record, path, where, f"missing {k!r}")


def _results_by_id(res: list, path, id_key: str, text_key: str, repeated, known) -> list:
    """[(id, text)] of the result records in order: both keys present, each id once
    (``repeated(id, earlier index)`` words the error) and in each id set of ``known``
    [(ids, message(id))], checked in that order."""
    out, seen = [], {}
    for i, r in enumerate(res):
        _require(r, (id_key, text_key), path, f"[{i}]")
        where = f"[{i}].{id_key}"
        x = _id(r[id_key], path, where)
        if x in seen:
            raise FormatError(path, where, repeated(x, seen[x]))
        seen[x] = i
        for ids, message in known:
            if ids is not None and x not in ids:
                raise FormatError(path, where, message(x))
        out.append((x, _text(r[text_key], path, f"[{i}].{text_key}")))
    return out


def read_coco(results, annotations, metric: str = "cider_d") -> dict:
    """CIDEr ``{"candidates", "references"}`` (or BLEU ``{"hypotheses", "references"}``)
    from a COCO caption results file and the annotations file."""
    res = _records(_read_json(results), results, "")
    refs: dict = {}
    for i, a in enumerate(_listed(annotations, "annotations")):
        _require(a, ("image_id", "caption"), annotations, f"annotations[{i}]")
        img = _id(a["image_id"], annotations, f"annotations[{i}].image_id")
        refs.setdefault(img, []).append(_text(a["caption"], annotations, f"annotations[{i}].caption"))
    pairs = _results_by_id(res, results, "image_id", "caption",
                           lambda img, at: f"image {img!r} already has a caption at [{at}]",
                           [(refs, lambda img: f"image {img!r} has no reference caption in {annotations}")])
    cands, out_refs = [c for _, c in pairs], [refs[img] for img, _ in pairs]
    if metric in ("bleu", "sentence_bleu"):
        return {"hypotheses": cands, "references": out_refs}
    return {"candidates": cands, "references": out_refs}


# ------------------------------------------------------------------ vqa

def read_vqa(results, annotations, questions=None) -> dict:
    """``{"predictions", "answers"}`` from a VQA results file and the annotations file."""
    res = _records(_read_json(results), results, "")
    answers: dict = {}
    for i, a in enumerate(_listed(annotations, "annotations")):
        _require(a, ("question_id", "answers"), annotations, f"annotations[{i}]")
        q = _id(a["question_id"], annotations, f"annotations[{i}].question_id")
        items = _records(a["answers"], annotations, f"annotations[{i}].answers")
        texts = []
        for j, x in enumerate(items):
            _expect("answer" in x, annotations, f"annotations[{i}].answers[{j}]", "missing 'answer'")
            texts.append(_text(x["answer"], annotations, f"annotations[{i}].answers[{j}].answer"))
        _expect(q not in answers, annotations, f"annotations[{i}].question_id", f"question {q!r} is annotated twice")
        answers[q] = texts
    asked = None
    if questions is not None:
        asked = {_id(x.get("question_id"), questions, f"questions[{i}].question_id")
                 for i, x in enumerate(_listed(questions, "questions"))}
    pairs = _results_by_id(res, results, "question_id", "answer",
                           lambda q, at: f"question {q!r} already answered at [{at}]",
                           [(answers, lambda q: f"question {q!r} has no annotation in {annotations}"),
                            (asked, lambda q: f"question {q!r} is not in {questions}")])
    return {"predictions": [a for _, a in pairs], "answers": [answers[q] for q, _ in pairs]}


# ------------------------------------------------------------------ squad

def read_squad(dataset, predictions) -> dict:
    """``{"predictions", "references"}`` from a SQuAD dataset file and a predictions file."""
    data = _read_json(dataset)
    _expect(isinstance(data, dict) and "data" in data, dataset, "(top level)", "expected an object with a 'data' list")
    preds = _read_json(predictions)
    _expect(isinstance(preds, dict), predictions, "(top level)", "expected an object {question id: answer text}")
    out_p, out_r, seen = [], [], set()
    for a, article in enumerate(_records(data["data"], dataset, "data")):
        _expect("paragraphs" in article, dataset, f"data[{a}]", "missing 'paragraphs'")
        for p, para in enumerate(_records(article["paragraphs"], dataset, f"data[{a}].paragraphs")):
            where_p = f"data[{a}].paragraphs[{p}]"
            _expect("qas" in para, dataset, where_p, "missing 'qas'")
            for j, qa in enumerate(_records(para["qas"], dataset, f"{where_p}.qas")):
                where = f"{where_p}.qas[{j}]"
                _expect("id" in qa, dataset, where, "missing 'id'")
                qid = _text(qa["id"], dataset, f"{where}.id")
                _expect(qid not in seen, dataset, f"{where}.id", f"duplicate question id {qid!r}")
                seen.add(qid)
                golds = []
                for k, ans in enumerate(_records(qa.get("answers", []), dataset, f"{where}.answers")):
                    _expect("text" in ans, dataset, f"{where}.answers[{k}]", "missing 'text'")
                    golds.append(_text(ans["text"], dataset, f"{where}.answers[{k}].text"))
                pred = preds.get(qid)
                if pred is not None:
                    _text(pred, predictions, f"[{json.dumps(qid)}]")
                out_p.append(pred)
                out_r.append(golds)
    for qid in preds:
        if qid not in seen:
            raise FormatError(predictions, f"[{json.dumps(qid)}]", f"question {qid!r} is not in {dataset}")
    return {"predictions": out_p, "references": out_r}


# ------------------------------------------------------------------ labels

_INT = re.compile(r"[+-]?\d+")


def read_labels(truth, pred) -> dict:
    """``{"y_true", "y_pred"}``: one label per line (digits: an int label)."""
    def labels(path):
        out = []
        for i, ln in enumerate(read_lines(path), start=1):
            s = ln.strip()
            if not s:
                raise FormatError(path, i, "an empty line (a missing label)")
            out.append(int(s) if _INT.fullmatch(s) else s)
        return out
    t, p = labels(truth), labels(pred)
    if len(t) != len(p):
        raise FormatError(pred, None, f"{len(p)} labels but {truth} has {len(t)}")
    return {"y_true": t, "y_pred": p}


def detect_scheme(inputs: dict) -> str:
    """The tagging scheme the tags are written in: IOBES when an E- or S- prefix occurs, BILOU
    for L- or U-, IOE2 for E- without B- or S-, else IOB2 (the default of seqeval and the oracle)."""
    prefixes = {t.split("-", 1)[0] for side in ("gold", "pred") for sent in inputs.get(side, []) for t in sent
                if "-" in t}
    if prefixes & {"L", "U"}:
        return "bilou"
    if "S" in prefixes or ("E" in prefixes and "B" in prefixes):
        return "iobes"
    if "E" in prefixes:
        return "ioe2"
    return "iob2"


# ------------------------------------------------------------------ dispatch

def guess_format(files: dict, metrics=()) -> str:
    """The format whose required file keys are all present (``files``: claim key -> path(s));
    where several are (coco and vqa both take results and annotations), the first that
    serves one of ``metrics``."""
    fits = [name for name, (required, _) in FORMATS.items() if all(k in files for k in required)]
    for name in fits:
        if any(m in FORMAT_METRICS[name] for m in metrics):
            return name
    if fits:
        return fits[0]
    keys = ", ".join(sorted(files)) or "none"
    raise InputError(f"files: no format takes the files given ({keys}); formats and their files: "
                     + "; ".join(f"{n}: {' '.join(r)}" for n, (r, _) in FORMATS.items()), item="files")


def load_inputs(fmt: str, files: dict, metric: str, reading: str | None = None, notes: list | None = None) -> dict:
    """The inputs of ``metric`` read from ``files`` (claim key -> path, or list of paths for
    ``ref``); text files under ``reading`` (``conformance.readings``; the anchor's by default)."""
    if fmt not in FORMATS:
        raise InputError(f"format: unknown format {fmt!r}; formats are {', '.join(FORMATS)}" + nearest(fmt, FORMATS),
                         item="format")
    required, optional = FORMATS[fmt]
    for k in required:
        if k not in files:
            raise InputError(f"format {fmt}: missing file {k}=...", item=k)
    allowed = set(required) | set(optional)
    for k in files:
        if k not in allowed:
            raise InputError(f"format {fmt}: does not take {k}=; it takes {', '.join(sorted(allowed))}", item=k)
    if metric not in FORMAT_METRICS[fmt]:
        raise InputError(f"format {fmt}: gives no input for metric {metric}; it serves "
                         f"{', '.join(FORMAT_METRICS[fmt])}", item="format")
    one = {k: (v[0] if isinstance(v, list) and k != "ref" else v) for k, v in files.items()}
    if fmt == "text":
        return read_text(one["hyp"], one["ref"], metric, reading, notes)
    if fmt == "conll":
        return read_conll(one["conll"], one.get("gold_col", -2), one.get("pred_col", -1), one.get("token_col", 0))
    if fmt == "trec":
        return read_trec(one["qrels"], one["run"])
    if fmt == "coco":
        return read_coco(one["results"], one["annotations"], metric)
    if fmt == "vqa":
        return read_vqa(one["results"], one["annotations"], one.get("questions"))
    if fmt == "squad":
        return read_squad(one["dataset"], one["predictions"])
    return read_labels(one["truth"], one["pred"])
