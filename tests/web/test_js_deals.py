"""The two browser copies of the seeded shuffle deal what ``common/deal.py``, their reference, deals.

The patience's page (``daily/web/store.mjs``, ``dealDeck``) and Kings Corner's
(``corner/web/engine.mjs``, ``seededDeck``) each spell out SplitMix64 and the
rejection-sampled Fisher-Yates shuffle (docs/DESIGN.md, "Twins"): both are asked
for the same deal numbers, the edges of 0..2**64-1 among them.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from clitools import need_node

import kcsolve
from kcsolve.common.deal import deal, shuffle_order

PACKAGE = Path(kcsolve.__file__).parent
SCRIPT = """
const [store, corner] = await Promise.all([import(process.argv[1]), import(process.argv[2])]);
const seeds = JSON.parse(process.argv[3]);
console.log(JSON.stringify(seeds.map((s) => [store.dealDeck(s), corner.seededDeck(s)])));
"""


def test_both_browser_shuffles_are_the_python_shuffle() -> None:
    node = need_node("the JavaScript shuffles")
    rng = random.Random("deals|js")
    seeds = [0, 1, 2, 2**32 - 1, 2**32, 2**53 + 1, 2**63, 2**64 - 2, 2**64 - 1]
    seeds += [rng.randrange(2**64) for _ in range(40)] + list(range(1000, 1010))
    shown = subprocess.run(
        [
            node,
            "--input-type=module",
            "-e",
            SCRIPT,
            (PACKAGE / "patience" / "daily" / "web" / "store.mjs").as_uri(),
            (PACKAGE / "corner" / "web" / "engine.mjs").as_uri(),
            json.dumps([str(s) for s in seeds]),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    answers = json.loads(shown.stdout)
    for seed, (patience, corner) in zip(seeds, answers, strict=True):
        assert patience == [str(card) for card in deal(seed)], seed
        assert corner == shuffle_order(seed), seed
