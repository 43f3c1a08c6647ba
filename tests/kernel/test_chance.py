"""The kernel's fast shuffle is `random.Random.shuffle`, draw for draw; mixing pieces into
a shuffled pool puts each at a uniformly random place."""

import random

from hypothesis import given, settings, strategies as st

from collections import Counter

from engine.kernel.chance import insert_at_random, shuffle


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


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 80), new=st.integers(0, 4))
def test_insert_at_random_draws_as_randrange_does(seed, size, new):
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    insert_at_random(ours, a, ["x", "y", "z", "w"][:new])
    for item in ["x", "y", "z", "w"][:new]:
        b.insert(theirs.randrange(len(b) + 1), item)
    assert a == b and ours.getstate() == theirs.getstate()


def test_an_inserted_piece_is_equally_likely_at_every_place():
    # 6,000 seeded trials of one piece into five: 1,000 expected at each of the 6 places;
    # a uniform draw falls outside 850..1,150 at one place with odds under 1 in 10,000
    places = Counter()
    for seed in range(6000):
        items = [1, 2, 3, 4, 5]
        insert_at_random(random.Random(seed), items, ["x"])
        places[items.index("x")] += 1
    assert sorted(places) == [0, 1, 2, 3, 4, 5]
    assert all(850 <= count <= 1150 for count in places.values()), places
