"""A benchmark workload: its generated data and the contenders timed on it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable



@dataclass
class Workload:
    name: str
    description: str
    setup: Callable[[], object]
    oracle: dict                     # contender name -> fn(data)
    peers: dict                      # contender name -> fn(data) (may be empty when missing)
    pairs: dict = field(default_factory=dict)  # oracle contender -> peers doing the same work (same tokenizer)
    missing: list = field(default_factory=list)
