"""`games.grids.bits_of`, the one bit-iteration helper every engine uses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.grids import bits_of


def naive_bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@given(st.integers(min_value=0, max_value=(1 << 600) - 1))
def test_bits_of_lists_the_set_bits_lowest_first(mask: int) -> None:
    assert bits_of(mask) == naive_bits(mask)


@given(st.lists(st.integers(min_value=0, max_value=400), max_size=60))
def test_bits_of_reads_sparse_and_dense_masks_alike(indices: list[int]) -> None:
    mask = sum(1 << i for i in set(indices))
    assert bits_of(mask) == sorted(set(indices))


@pytest.mark.parametrize("mask", [-1, -2, -(1 << 81), -12345])
def test_a_negative_mask_is_refused_instead_of_looping_forever(mask: int) -> None:
    with pytest.raises(ValueError, match="negative"):
        bits_of(mask)
