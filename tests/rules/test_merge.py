"""Merge rules as properties: deep merge of mappings, replacement of the rest, and a
provenance for every value that names the file that set it."""

import yaml
from hypothesis import given, settings, strategies as st

from engine.rules.merge import MISSING, Merger
from engine.rules.yamlload import parse_text

KEYS = st.sampled_from(["a", "b", "c", "d"])
SCALARS = st.one_of(st.integers(-5, 5), st.sampled_from(["x", "y"]), st.booleans())
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)
MAPPINGS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=4)


def reference(base, over):
    """The documented rule, written as plainly as possible."""
    if isinstance(over, dict) and isinstance(base, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = reference(base.get(key, MISSING), value)
        return out
    if isinstance(over, dict):
        return {k: reference(MISSING, v) for k, v in over.items()}
    return over


def leaves(value, path=()):
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list) and value:
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))
    else:
        yield path


def at(value, path):
    """The value at `path`, or MISSING."""
    for step in path:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            return MISSING
    return value


def setter(base, over, path):
    """Which file set the value at `path`: the override wherever it replaced a value (or
    added one); a mapping merged over a mapping stays the base's."""
    for n in range(1, len(path) + 1):
        mine, theirs = at(over, path[:n]), at(base, path[:n])
        if mine is MISSING:
            return "base.yaml"
        if not (isinstance(mine, dict) and isinstance(theirs, dict)):
            return "over.yaml"
    return "base.yaml"


@settings(max_examples=80, deadline=None)
@given(MAPPINGS, MAPPINGS)
def test_merge_follows_the_rules_and_every_value_has_its_source(base, over):
    base_doc = parse_text(yaml.safe_dump(base), "base.yaml")
    over_doc = parse_text(yaml.safe_dump(over), "over.yaml")
    found = []
    data, bprov = Merger(base_doc, found, "ruleset").merge({}, None, base_doc.data, ())
    result, prov = Merger(over_doc, found, "overlay").merge(data, bprov, over_doc.data, ())
    assert result == reference(base, over)
    for path in leaves(result):
        node = prov.find(path)
        assert node is not None, path
        assert node.doc.path == setter(base, over, path), path
        assert node.doc.where(*node.path) is not None


def test_a_misspelt_directive_suggests_the_closest(tree, write):
    from engine.rules import check_ruleset

    child = write(tree, "demo/typo.yaml", "extends: demo/base\nruleset:\n  game: demo\n"
                  "  title: T\n  sources: {$apend: [x]}\nscoring: {$delet: [bridge]}\n")
    found = {(d.pos.line, d.help) for d in check_ruleset(str(child))[1] if d.code == "R406"}
    assert found == {(5, "did you mean `$append`?"), (6, "did you mean `$delete`?")}
