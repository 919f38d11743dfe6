"""reading=seqeval and reading=conlleval on B, I and O tags, by enumeration: the two readings
are written separately in oracle/chunks.py (seqeval's end_of_chunk/start_of_chunk, and
conlleval.pl's endOfChunk/startOfChunk as the Perl script writes them); on sequences of B, I
and O tags they must read the same chunks, which is what lets a run say the knob never
differs under scheme=iob1 or iob2 (oracle.tagging.reading_inert). On E and S tags they part."""
import itertools

from oracle.chunks import read_chunks
from oracle.registry import get_metric

TAGS = [("O", ""), ("B", "X"), ("I", "X"), ("B", "Y"), ("I", "Y")]


def test_on_b_i_o_tags_the_two_readings_read_the_same_chunks():
    n = 0
    for length in range(1, 7):
        for seq in itertools.product(TAGS, repeat=length):
            tags = list(seq)
            for scheme in ("iob1", "iob2"):
                assert read_chunks(tags, scheme, "seqeval") == read_chunks(tags, scheme, "conlleval"), (scheme, tags)
            n += 1
    assert n == sum(5 ** k for k in range(1, 7))


def test_on_iobes_tags_they_part_so_the_rule_is_limited_to_iob():
    # S-X S-X: seqeval reads two chunks (S ends one), conlleval.pl knows no S: one chunk
    tags = [("S", "X"), ("S", "X")]
    assert read_chunks(tags, "iobes", "seqeval") == [(0, 1, "X"), (1, 2, "X")]
    assert read_chunks(tags, "iobes", "conlleval") == [(0, 2, "X")]
    m = get_metric("entity_f1")
    assert m.inert("reading", "seqeval", "conlleval", m.settings({"scheme": "iob2"}))
    assert m.inert("reading", "seqeval", "conlleval", m.settings({"scheme": "iobes"})) is None
    assert m.inert("reading", "seqeval", "valid-only", m.settings({"scheme": "iob2"})) is None
