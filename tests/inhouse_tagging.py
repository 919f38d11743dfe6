"""An in-house entity F1, judged by the suite in the tests.

``entity_f1_pooled_type_text`` is the NER scoring of source document 000
(part 1) lifted into a function: ``ekstrak_entitas`` reads each sentence's
entities as (type, surface text) pairs, the pairs are pooled over the corpus,
and per type ``cocok = sum(1 for n in pred_j if n in emas_j)``: a predicted
text counts as correct when the same text occurs among the gold texts of that
type anywhere in the corpus. The micro scores are the document's
``jumlah_cocok / jumlah_pred`` and ``jumlah_cocok / jumlah_emas``, with the
divisions guarded (0 when a count is 0), so that the pooled matching is its
only departure from what it declares.

It declares itself an implementation of span-based entity F1: matching by
(sentence, start, end, type), micro average, IOB2 tags written prefix-type,
zero_division zero, and the valid-only reading, which is what ``ekstrak_entitas``
does with an I- that does not continue a B- of its type (it closes the open
entity and starts nothing). The claim about matching is false, and the suite
finds it.
"""
from conformance.functions import implementation
from conformance.protocol import Skip

DECLARED = {"scheme": "iob2", "reading": "valid-only", "tag_format": "prefix-type", "average": "micro",
            "zero_division": "zero", "labels": "all", "matching": "span"}


def ekstrak_entitas(kata_list, tag_list):
    """Document 000 part 1, verbatim: [(type, text)] of one sentence."""
    entitas, sedang = [], None
    for kata, tag in zip(kata_list, tag_list):
        if tag.startswith("B-"):
            if sedang:
                entitas.append(sedang)
            sedang = (tag[2:], [kata])
        elif tag.startswith("I-") and sedang and tag[2:] == sedang[0]:
            sedang[1].append(kata)
        else:
            if sedang:
                entitas.append(sedang)
            sedang = None
    if sedang:
        entitas.append(sedang)
    return [(jenis, " ".join(k)) for jenis, k in entitas]


@implementation("entity_f1", conventions=DECLARED, name="document-pooled-entity-f1")
def entity_f1_pooled_type_text(inputs):
    tokens = inputs.get("tokens")
    if tokens is None:
        raise Skip("the document's scoring compares surface texts: it needs the tokens field")
    emas, prediksi = [], []
    for kata, gold, pred in zip(tokens, inputs["gold"], inputs["pred"]):
        emas.extend(ekstrak_entitas(kata, gold))
        prediksi.extend(ekstrak_entitas(kata, pred))
    jumlah_emas = jumlah_pred = jumlah_cocok = 0
    for jenis in sorted({j for j, _ in emas} | {j for j, _ in prediksi}):
        emas_j = [n for j, n in emas if j == jenis]
        pred_j = [n for j, n in prediksi if j == jenis]
        cocok = sum(1 for n in pred_j if n in emas_j)
        jumlah_emas += len(emas_j)
        jumlah_pred += len(pred_j)
        jumlah_cocok += cocok
    p_mikro = jumlah_cocok / jumlah_pred if jumlah_pred else 0.0
    r_mikro = jumlah_cocok / jumlah_emas if jumlah_emas else 0.0
    return 2 * p_mikro * r_mikro / (p_mikro + r_mikro) if p_mikro + r_mikro else 0.0
