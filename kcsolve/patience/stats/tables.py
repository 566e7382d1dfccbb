"""What the compiled and the machine-code course share: the shuffle's table of words kept, the loop's C signature."""

from __future__ import annotations

import numpy as np

from kcsolve.common.cards import DECK_SIZE

MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)

# The largest word the shuffle keeps for each bound (2**64 - 1 - 2**64 mod bound), so no draw divides twice.
KEEP = np.array(
    [MASK64 - (MASK64 % np.uint64(b) + np.uint64(1)) % np.uint64(b) if b else MASK64 for b in range(DECK_SIZE + 1)],
    dtype=np.uint64,
)

# first deal, count, stop at the twelfth court card, codes (count), KEEP, ranks (52), counts (11): scratch last
KERNEL_SIGNATURE = "void(uint64, int64, boolean, CPointer(uint8), CPointer(uint64), CPointer(int8), CPointer(int64))"
