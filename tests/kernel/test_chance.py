"""The kernel's fast shuffle is `random.Random.shuffle`, draw for draw."""

import random

from hypothesis import given, settings, strategies as st

from engine.kernel.chance import shuffle


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 120))
def test_same_order_and_same_generator_state_as_random_shuffle(seed, size):
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


def test_a_subclass_uses_its_own_shuffle():
    class Reverse(random.Random):
        def shuffle(self, x):
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reverse(0), items)
    assert items == [3, 2, 1]
