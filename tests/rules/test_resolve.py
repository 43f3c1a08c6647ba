"""Resolution: extends, overlays (listed and --with), merge directives, provenance, ids."""

import hashlib
import json

import pytest

from engine.diagnostics import RulecraftError
from engine.rules import check_ruleset, load_ruleset


CHILD = """\
extends: demo/base
ruleset:
  game: demo
  title: Demo, four players
  sources: {$append: [house rules]}
players:
  max: 4
scoring:
  $delete: [bridge]
  hexagon:
    points: 60 * move.hexagons
"""


def codes(diagnostics):
    return sorted(d.code for d in diagnostics)


def test_child_merges_deeply_over_its_base_with_provenance(tree, write):
    child = write(tree, "demo/child.yaml", CHILD)
    rs = load_ruleset(str(child))
    assert rs.id == "demo/child" and rs.game == "demo" and rs.title == "Demo, four players"
    assert rs.base == "demo/base"
    assert rs.data["players"] == {"min": 2, "max": 4, "default": 2}
    # the value set by the child points at the child, the rest at the base
    assert rs.where("players", "max").path.endswith("demo/child.yaml")
    assert rs.where("players", "max").line == 7 and rs.where("players", "max").col == 8
    assert rs.where("players", "min").path.endswith("demo/base.yaml")
    assert rs.where("players", "min").line == 13
    assert rs.data["scoring"]["hexagon"]["points"] == "60 * move.hexagons"
    assert rs.data["scoring"]["hexagon"]["if"] == "move.hexagons > 0"
    assert rs.where("scoring", "hexagon", "if").path.endswith("demo/base.yaml")
    assert "bridge" not in rs.data["scoring"]
    assert [f.rsplit("/", 1)[-1] for f in rs.files] == ["base.yaml", "child.yaml"]


def test_append_and_prepend_extend_a_base_list(tree, write):
    child = write(tree, "demo/child.yaml", CHILD)
    rs = load_ruleset(str(child))
    sources = rs.data["ruleset"]["sources"]
    assert sources == ["Pressman rules", "seed text (DA)", "seed text (RU)", "house rules"]
    assert rs.where("ruleset", "sources", 3).path.endswith("child.yaml")
    assert rs.where("ruleset", "sources", 0).path.endswith("base.yaml")
    write(tree, "demo/pre.yaml", CHILD.replace("$append", "$prepend"))
    rs = load_ruleset(str(tree / "demo/pre.yaml"))
    assert rs.data["ruleset"]["sources"][0] == "house rules"
    assert rs.where("ruleset", "sources", 1).path.endswith("base.yaml")


def test_default_is_not_inherited(tree, write):
    child = write(tree, "demo/child.yaml", CHILD)
    assert load_ruleset(str(tree / "demo/base.yaml")).default is True
    assert load_ruleset(str(child)).default is False
    assert "default" not in load_ruleset(str(child)).data["ruleset"]


def test_game_name_alone_means_the_default_and_ids_resolve_near_the_file(tree, write):
    write(tree, "demo/child.yaml", CHILD)
    rs = load_ruleset("triominos")
    assert rs.id == "triominos/pressman"
    # `extends: demo/base` is found in the child's own rulesets folder
    assert load_ruleset(str(tree / "demo/child.yaml")).data["board"] == {"kind": "triangular"}


def test_overlays_apply_in_order_listed_then_with(tree, write):
    write(tree, "demo/overlays/five.yaml", "overlay: {game: demo, title: Five}\nplayers: {max: 5}\n")
    write(tree, "demo/overlays/three.yaml", "overlay: {game: demo, title: Three}\nplayers: {max: 3}\n")
    child = write(tree, "demo/child.yaml", CHILD + "overlays: [five]\n")
    rs = load_ruleset(str(child))
    assert rs.data["players"]["max"] == 5 and rs.overlays == ["five"]
    assert rs.where("players", "max").path.endswith("overlays/five.yaml")
    rs = load_ruleset(str(child), overlays=["three"])
    assert rs.data["players"]["max"] == 3 and rs.overlays == ["five", "three"]
    assert [f.rsplit("/", 1)[-1] for f in rs.files] == ["base.yaml", "child.yaml", "five.yaml", "three.yaml"]
    assert rs.where("players", "max").path.endswith("overlays/three.yaml")
    # an overlay by its game-qualified name and by path
    assert load_ruleset(str(child), ["demo/overlays/three"]).data["players"]["max"] == 3
    assert load_ruleset(str(child), [str(tree / "demo/overlays/three.yaml")]).data["players"]["max"] == 3


def test_hash_is_sha256_of_canonical_json(tree, write):
    rs = load_ruleset(str(tree / "demo/base.yaml"))
    def strkeys(v):
        if isinstance(v, dict):
            return {str(k): strkeys(x) for k, x in v.items()}
        return [strkeys(x) for x in v] if isinstance(v, list) else v
    text = json.dumps(strkeys(rs.data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rs.hash == hashlib.sha256(text.encode()).hexdigest()
    write(tree, "demo/overlays/five.yaml", "overlay: {game: demo, title: Five}\nplayers: {max: 5}\n")
    assert load_ruleset(str(tree / "demo/base.yaml"), ["five"]).hash != rs.hash


def test_unknown_refs_raise_with_a_suggestion():
    with pytest.raises(RulecraftError) as err:
        load_ruleset("triominos/presman")
    (d,) = err.value.diagnostics
    assert d.code == "R400" and d.help == "did you mean `triominos/pressman`?"
    rs, diags = check_ruleset("triominos", ["no-such-overlay"])
    assert rs is None and codes(diags) == ["R401"]


def test_cycle_other_game_redundant_and_bad_directives(tree, write):
    write(tree, "demo/a.yaml", "extends: demo/b\nruleset: {game: demo, title: A}\n")
    write(tree, "demo/b.yaml", "extends: demo/a\nruleset: {game: demo, title: B}\n")
    assert "R402" in codes(check_ruleset(str(tree / "demo/a.yaml"))[1])
    write(tree, "cards/overlays/open.yaml", "overlay: {game: cards, title: Open}\nplayers: {max: 3}\n")
    rs, diags = check_ruleset(str(tree / "demo/base.yaml"), [str(tree / "cards/overlays/open.yaml")])
    assert rs is None and codes(diags) == ["R403"]
    write(tree, "demo/overlays/same.yaml", "overlay: {game: demo, title: Same}\nplayers: {max: 6}\n")
    rs, diags = check_ruleset(str(tree / "demo/base.yaml"), ["same"])
    (d,) = diags
    assert d.code == "R404" and d.pos.path.endswith("same.yaml") and d.pos.line == 2
    write(tree, "demo/bad.yaml", "extends: demo/base\nruleset: {game: demo, title: Bad}\n"
          "players: {$append: [1]}\nscoring: {$delete: [nothing]}\n")
    assert codes(check_ruleset(str(tree / "demo/bad.yaml"))[1]) == ["R405", "R407", "S200"]


def test_locator_follows_the_file_that_set_the_expression(tree, write):
    child = write(tree, "demo/child.yaml", CHILD)
    rs = load_ruleset(str(child))
    text = rs.data["scoring"]["hexagon"]["points"]
    pos = rs.locator("scoring", "hexagon", "points").shifted(text.index("move"), text)
    assert pos.path.endswith("child.yaml") and (pos.line, pos.col) == (11, 18)
    assert rs.where("scoring", "nothing") is None
    assert rs.near("scoring", "nothing", "points") == rs.where("scoring")


def test_expression_errors_land_on_the_character_through_the_locator(tree, write):
    from engine.expr import compile_expression
    from engine.expr import types as T

    child = write(tree, "demo/child.yaml", CHILD.replace(
        "    points: 60 * move.hexagons\n",
        "    points: >\n      60 *\n      move.hexgons\n    if: 'move.value > 0 and move.opning'\n"))
    rs = load_ruleset(str(child))
    env = {"move": T.Record("move", {"hexagons": T.INT, "value": T.INT, "opening": T.BOOL})}
    lines = child.read_text().splitlines()
    for key, typo in (("points", "hexgons"), ("if", "opning")):
        source = rs.data["scoring"]["hexagon"][key]
        _, problems = compile_expression(source, env, rs.locator("scoring", "hexagon", key))
        (problem,) = problems
        assert problem.pos.path.endswith("child.yaml")
        assert lines[problem.pos.line - 1][problem.pos.col - 1:].startswith(typo), problem


def test_a_missing_path_says_no_such_file_not_which_ids_exist(tree, write):
    child = write(tree, "demo/child.yaml",
                  "extends: ./gone.yaml\nruleset: {game: demo, title: C}\n")
    rs, (d,) = check_ruleset(str(child))
    assert rs is None and d.code == "R400" and d.message == "no ruleset file `./gone.yaml`"
    assert (d.pos.line, d.pos.col) == (1, 10) and "read from" in d.help
    rs, (d,) = check_ruleset(str(tree / "demo/base.yaml"), [str(tree / "demo/overlays/gone.yaml")])
    assert rs is None and d.code == "R401" and d.message.startswith("no overlay file")
    assert d.help == "check the path"


def test_a_folder_or_a_path_without_its_suffix_is_named_as_such(tree, write):
    rs, (d,) = check_ruleset(str(tree / "demo"))
    assert d.code == "R400" and d.message.endswith("is a folder, not a ruleset")
    child = write(tree, "demo/child.yaml", "extends: ../demo/base\nruleset: {game: demo, title: C}\n")
    rs, (d,) = check_ruleset(str(child))
    assert d.code == "R400" and d.help == "did you mean the file `../demo/base.yaml`?"
