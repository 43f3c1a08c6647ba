"""Safe YAML loading: positions of keys and values, refusals, caps, exact expression offsets."""

import time

from engine.rules.yamlload import MAX_BYTES, parse_bytes, parse_text, read_text


def codes(doc):
    return [d.code for d in doc.diagnostics]


def test_positions_of_keys_and_values_are_one_based():
    doc = parse_text("a: 1\nb:\n  c: [x, y]\n", "f.yaml")
    assert doc.data == {"a": 1, "b": {"c": ["x", "y"]}}
    assert (doc.where("a").line, doc.where("a").col) == (1, 4)
    assert (doc.key_where("b", "c").line, doc.key_where("b", "c").col) == (3, 3)
    assert (doc.where("b", "c", 1).line, doc.where("b", "c", 1).col) == (3, 10)


def test_keys_are_names_not_booleans_and_integer_keys_stay_integers():
    doc = parse_text("on: place\nyes: 1\nhand_size: {2: 9, 3: 7}\n", "f.yaml")
    assert doc.data == {"on": "place", "yes": 1, "hand_size": {2: 9, 3: 7}}
    assert doc.diagnostics == []


def test_duplicate_key_is_refused_with_both_lines():
    doc = parse_text("a: 1\nb: 2\na: 3\n", "f.yaml")
    (d,) = doc.diagnostics
    assert d.code == "Y102" and (d.pos.line, d.pos.col) == (3, 1) and "line 1" in d.message
    assert not doc.ok


def test_implicit_boolean_value_warns_but_true_false_do_not():
    doc = parse_text("a: no\nb: On\nc: true\nd: 'no'\n", "f.yaml")
    assert codes(doc) == ["Y103", "Y103"]
    assert doc.data == {"a": False, "b": True, "c": True, "d": "no"}
    assert doc.ok  # a warning only


def test_tab_in_indentation_is_reported_at_the_tab():
    doc = parse_text("a:\n  b: 1\n \tc: 2\n", "f.yaml")
    assert codes(doc) == ["Y101"]
    assert (doc.diagnostics[0].pos.line, doc.diagnostics[0].pos.col) == (3, 2)


def test_syntax_error_has_a_position():
    doc = parse_text("a: [1, 2\nb: 3\n", "f.yaml")
    assert codes(doc) == ["Y100"] and doc.diagnostics[0].pos.line == 2


def test_syntax_error_help_points_back_at_the_unclosed_construct():
    (d,) = parse_text("a: x\nb: [1, 2\nc: 3\n", "f.yaml").diagnostics
    assert d.help == "check the list `[` that starts at line 2, column 4"
    (d,) = parse_text("a:\n  title: one: two\n", "f.yaml").diagnostics
    assert (d.pos.line, d.help) == (2, "a value holding `: ` must be quoted")


def test_a_top_level_list_says_what_to_write():
    (d,) = parse_text("- a\n- b\n", "f.yaml").diagnostics
    assert d.code == "Y110" and d.help.startswith("write `key: value` lines")


def test_empty_and_comment_only_files():
    assert codes(parse_text("", "f.yaml")) == ["Y104"]
    assert codes(parse_text("# nothing\n\n", "f.yaml")) == ["Y104"]


def test_non_utf8_byte_is_located():
    doc = parse_bytes(b"a: 1\nb: caf\xe9\n", "f.yaml")
    assert codes(doc) == ["Y105"]
    assert (doc.diagnostics[0].pos.line, doc.diagnostics[0].pos.col) == (2, 7)


def test_utf8_bom_is_accepted():
    assert parse_bytes(b"\xef\xbb\xbfa: 1\n", "f.yaml").data == {"a": 1}


def test_control_character_is_a_diagnostic():
    assert codes(parse_text("a: b\x00\n", "f.yaml")) == ["Y100"]


def test_alias_bomb_is_capped_quickly():
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    start = time.process_time()  # CPU time: the bound holds on a loaded machine too
    doc = parse_text("\n".join(lines) + "\n", "bomb.yaml")
    assert codes(doc) == ["Y106"]
    assert time.process_time() - start < 5


def test_recursive_alias_and_deep_nesting_are_refused():
    assert codes(parse_text("a: &x [*x]\n", "f.yaml")) == ["Y108"]
    assert codes(parse_text("a: " + "[" * 80 + "]" * 80 + "\n", "f.yaml")) == ["Y108"]
    deep = parse_text("a: " + "[" * 5000 + "]" * 5000 + "\n", "f.yaml")
    assert deep.diagnostics and not deep.ok


def test_ten_megabyte_file_gets_a_diagnostic_in_bounded_time(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * 98 + b"\n" + b"a: 1\n" * (10 * 1024 * 1024 // 5))
    start = time.process_time()  # CPU time: load does not move it
    doc = read_text(big)
    assert codes(doc) == ["Y107"]
    assert time.process_time() - start < 2
    assert big.stat().st_size > MAX_BYTES


def test_unsafe_tags_merge_keys_and_complex_keys_are_refused():
    assert codes(parse_text("a: !!python/object:os.system x\n", "f.yaml")) == ["Y109"]
    assert codes(parse_text("a: !custom 1\n", "f.yaml")) == ["Y109"]
    assert codes(parse_text("b: &b {x: 1}\na:\n  <<: *b\n", "f.yaml")) == ["Y112"]
    assert codes(parse_text("? [a, b]\n: 1\n", "f.yaml")) == ["Y113"]


def test_top_level_must_be_a_mapping():
    assert codes(parse_text("- 1\n- 2\n", "f.yaml")) == ["Y110"]


def test_missing_file(tmp_path):
    assert codes(read_text(tmp_path / "nope.yaml")) == ["Y111"]


def _caret(src, doc, key, target):
    """Position of `target` inside the value of `key`, through the scalar's locator."""
    value = doc.data[key]
    pos = doc.locator(key).shifted(value.index(target), value)
    line = src.split("\n")[pos.line - 1]
    return pos.line, pos.col, line[pos.col - 1 : pos.col - 1 + len(target)]


SRC = """plain: move.value + tile.vaule
single: 'it''s + tile.vaule'
double: "a\\tb + tile.vaule"
folded_plain: move.value
  + tile.vaule
literal: |
  sum(x for x in xs)
    + tile.vaule
folded: >
  move.value
  + tile.vaule
quoted_fold: "move.value
   + tile.vaule"
"""


def test_locator_lands_on_the_character_in_every_scalar_style():
    doc = parse_text(SRC, "f.yaml")
    assert doc.diagnostics == []
    # Worked out by hand from SRC: the line and column of `tile.vaule` in each.
    expected = {
        "plain": (1, 21),
        "single": (2, 18),
        "double": (3, 17),
        "folded_plain": (5, 5),
        "literal": (8, 7),
        "folded": (11, 5),
        "quoted_fold": (13, 6),
    }
    for key, (line, col) in expected.items():
        assert _caret(SRC, doc, key, "tile.vaule") == (line, col, "tile.vaule"), key


def test_locator_of_a_non_string_is_its_position():
    doc = parse_text("a: 12\n", "f.yaml")
    assert doc.locator("a").shifted(0, "12") == doc.where("a")


from hypothesis import given, settings, strategies as st

_YAML_BITS = st.sampled_from(
    ["a", "b:", " ", "  ", "\n", "\t", "-", "[", "]", "{", "}", ",", ":", "'", '"', "&x", "*x",
     "!!str", "!t", "<<", "?", "#", "|", ">", "no", "on", "1", "0x1f", "\x00", "é", "\\"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_YAML_BITS, max_size=40).map("".join))
def test_no_text_makes_the_loader_raise(text):
    doc = parse_text(text, "fuzz.yaml")
    assert doc.data is None or isinstance(doc.data, dict)
    assert all(d.pos is not None and d.pos.line >= 1 and d.pos.col >= 1 for d in doc.diagnostics)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_no_bytes_make_the_loader_raise(raw):
    parse_bytes(raw, "fuzz.yaml")
