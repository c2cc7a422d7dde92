"""Seeds (solver/core/seeds.py): a generator's state written as JSON and read back exactly."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from solver.core import BadStateError, make_rng, restore_rng, rng_to_json


def test_a_generator_goes_on_exactly_after_a_json_round_trip() -> None:
    rng = make_rng(11)
    rng.random(7)
    rng.random(dtype=np.float32)  # a 32-bit draw leaves half a 64-bit word buffered; it is carried
    saved = json.loads(json.dumps(rng_to_json(rng)))
    assert saved["has_uint32"] == 1
    assert isinstance(saved["state"], str) and isinstance(saved["inc"], str)  # 128 bits, as text
    expected = (rng.random(5), rng.integers(1 << 31, size=3))
    other = make_rng(99)
    shared = other  # restored in place: whoever shares the generator follows
    restore_rng(other, saved)
    got = (shared.random(5), shared.integers(1 << 31, size=3))
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])


@pytest.mark.parametrize("change", [
    None, [], {"bit_generator": "MT19937"}, {"state": 7}, {"state": "-1"}, {"state": "1e5"},
    {"state": str(1 << 128)}, {"inc": "4"}, {"has_uint32": 2}, {"has_uint32": True},
    {"uinteger": -1}, {"uinteger": 1 << 32},
])
def test_a_bad_state_is_a_bad_state_error_and_changes_nothing(change: Any) -> None:
    good = rng_to_json(make_rng(1))
    data = dict(good, **change) if isinstance(change, dict) else change
    rng = make_rng(2)
    before = rng_to_json(rng)
    with pytest.raises(BadStateError, match="generator state"):
        restore_rng(rng, data)
    assert rng_to_json(rng) == before


def test_only_pcg64_is_written() -> None:
    with pytest.raises(BadStateError, match="PCG64"):
        rng_to_json(np.random.Generator(np.random.MT19937(1)))
