"""`rulecraft rulesets`, `rulecraft show ID`, `rulecraft schema`: what rulesets exist,
what one resolves to (and where each value came from), and the JSON schema."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
import yaml

from engine import paths
from engine.cli.app import app
from engine.cli.common import WithOption, load_or_exit, ruleset_heading
from engine.diagnostics import printable
from engine.rules import files
from engine.rules.resolve import Ruleset
from engine.rules.overlay_schema import overlay_schema_text
from engine.rules.schema import load_schema


def catalog() -> dict[str, list[dict]]:
    """Every ruleset (id, game, title, base, overlays, default, origin) and overlay, from
    the user's folders (`--rulesets`, `RULECRAFT_PATH`) first, then the shipped ones; an id
    found twice is the first one's (the one a reference resolves to)."""
    rulesets, overlays, seen = [], [], set()
    for root in files.user_roots() + [files.shipped_root()]:
        where = files.origin(root / "_")
        for rid, path in files.iter_ruleset_files(root):
            if rid not in seen:
                seen.add(rid)
                rulesets.append(_ruleset_row(rid, path, where))
        for game, name, path in files.iter_overlay_files(root):
            if (game, name) not in seen:
                seen.add((game, name))
                header = _header(files.load_document(path).data, "overlay")
                overlays.append({"name": name, "id": f"{game}/overlays/{name}", "game": game,
                                 "title": header.get("title", ""), "origin": where})
    return {"rulesets": rulesets, "overlays": overlays}


def _header(data, key: str) -> dict:
    header = data.get(key) if isinstance(data, dict) else None
    return header if isinstance(header, dict) else {}


def _ruleset_row(rid: str, path, where: str) -> dict:
    data = files.load_document(path).data
    data = data if isinstance(data, dict) else {}
    header = _header(data, "ruleset")
    listed = data.get("overlays")
    return {
        "id": rid,
        "game": header.get("game", rid.split("/")[0]),
        "title": header.get("title", ""),
        "base": data.get("extends"),
        "overlays": listed if isinstance(listed, list) else [],
        "default": header.get("default") is True,
        "origin": where,
    }


def _table(rows: list[list[str]]) -> str:
    rows = [[printable(c, newlines=False) for c in r] for r in rows]  # titles: authors' words
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


@app.command("rulesets")
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the available rulesets and overlays (* marks a game's default)."""
    found = catalog()
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    rows = [["ID", "GAME", "TITLE", "BASE", "OVERLAYS", "ORIGIN"]]
    for r in found["rulesets"]:
        rows.append([r["id"] + (" *" if r["default"] else ""), r["game"], r["title"],
                     r["base"] or "-", ", ".join(r["overlays"]) or "-", r["origin"]])
    typer.echo(_table(rows))
    if found["overlays"]:
        typer.echo("")
        rows = [["OVERLAY", "GAME", "TITLE", "ORIGIN"]]
        rows += [[o["name"], o["game"], o["title"], o["origin"]] for o in found["overlays"]]
        typer.echo(_table(rows))


@app.command("show")
def show(
    ref: Annotated[str, typer.Argument(help="A ruleset id, a game name, or a path.")],
    with_: WithOption = None,
    provenance: Annotated[bool, typer.Option("--provenance", help="Mark the file:line that set each value.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: id, title, overlays, hash, files and the data.")] = False,
) -> None:
    """Print the fully resolved ruleset as YAML."""
    ruleset = load_or_exit(ref, with_)
    if as_json:
        typer.echo(json.dumps(show_json(ruleset, provenance), indent=2, default=str))
        return
    header = f"# {ruleset.id}" + "".join(f" --with {o}" for o in ruleset.overlays)
    typer.echo(printable(f"{header}\n# {ruleset_heading(ruleset)}\n# sha256 {ruleset.hash}"))
    if provenance:
        typer.echo(printable("\n".join(provenance_lines(ruleset))))
    else:
        dumped = yaml.safe_dump(ruleset.data, sort_keys=False, allow_unicode=True, width=100)
        typer.echo(printable(dumped.rstrip()))


def show_json(ruleset: Ruleset, provenance: bool = False) -> dict:
    """What `show --json` prints; with `provenance`, `where` maps each dotted path to file:line."""
    out = {"id": ruleset.id, "game": ruleset.game, "title": ruleset.title,
           "description": ruleset.description, "overlays": list(ruleset.overlays),
           "hash": ruleset.hash, "files": list(ruleset.files), "data": ruleset.data}
    if provenance:
        out["where"] = dict(_where_items(ruleset, ruleset.data, ()))
    return out


def _where_items(ruleset: Ruleset, value: Any, path: tuple):
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        sub = path + (key,)
        where = ruleset.key_where(*sub)
        if where:
            yield ".".join(map(str, sub)), f"{where.path}:{where.line}"
        if isinstance(item, (dict, list)):
            yield from _where_items(ruleset, item, sub)


def _scalar(value: Any) -> str:
    """A value on one line (a multi-line string in double quotes, with `\\n`)."""
    style = '"' if isinstance(value, str) and "\n" in value else None
    text = yaml.safe_dump(value, default_flow_style=True, default_style=style, allow_unicode=True,
                          width=10_000)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def provenance_lines(ruleset: Ruleset, value: Any = None, path: tuple = (), indent: int = 0) -> list[str]:
    """The resolved data as YAML, each line ending in `# file:line` of what set it."""
    value = ruleset.data if not path else value
    pad = " " * indent
    lines: list[str] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        sub = path + (key,)
        where = ruleset.key_where(*sub)
        mark = f"  # {where.path}:{where.line}" if where else ""
        lead = f"{pad}{_scalar(key)}:" if isinstance(value, dict) else f"{pad}-"
        if isinstance(item, (dict, list)) and item:
            lines.append(lead + mark)
            lines += provenance_lines(ruleset, item, sub, indent + 2)
        else:
            lines.append(f"{lead} {_scalar(item)}{mark}")
    return lines


@app.command("schema")
def schema(
    overlay: Annotated[bool, typer.Option("--overlay", help="The schema of overlay files.")] = False,
    record: Annotated[bool, typer.Option("--record", help="The schema of game records.")] = False,
    write: Annotated[bool, typer.Option(
        "--write", help="With --overlay: write the overlay schema, derived from the ruleset schema,"
        " to the shipped schemas/overlay.schema.json (after changing the ruleset schema).")] = False,
) -> None:
    """Print the JSON schema of rulesets (or overlays, or records), for editors and CI."""
    if overlay and record:
        typer.echo("error: --overlay and --record name two schemas; give one", err=True)
        raise typer.Exit(2)
    if write and not overlay:
        typer.echo("error: --write writes the overlay schema, the one derived from another;"
                   " give --overlay", err=True)
        raise typer.Exit(2)
    if record:
        from engine.kernel.record_shape import record_schema

        typer.echo(json.dumps(record_schema(), indent=2))
        return
    if write:
        target = paths.schemas_dir() / "overlay.schema.json"
        target.write_text(overlay_schema_text(load_schema("ruleset")), encoding="utf-8")
        typer.echo(f"wrote {target}", err=True)
        return
    typer.echo(json.dumps(load_schema("overlay" if overlay else "ruleset"), indent=2))
