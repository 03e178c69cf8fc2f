"""The report's words: one `Wording` per language turns the facts of `facts.py` into sentences.

`core.py` holds `Wording`: every phrase a report uses and, in its methods, how a fact becomes a
sentence, written once so both languages always state the same facts. A language is data only
(names, separators and `str.format` templates), one file each: `zh.py`, `en.py`. A template
whose words depend on a count may be a pair: (when the count is 1, otherwise).
"""

from __future__ import annotations

from prhub_pipeline.records import Lang
from prhub_pipeline.reporting.wording.core import Wording, module_display_names
from prhub_pipeline.reporting.wording.en import EN
from prhub_pipeline.reporting.wording.zh import ZH

WORDINGS: dict[Lang, Wording] = {"zh": ZH, "en": EN}

__all__ = ["EN", "WORDINGS", "ZH", "Wording", "module_display_names"]
