"""What every command shares beyond its own options: `--rulesets DIR` (repeatable), the
examples under its `--help`, and a help screen without a `<bool>` beside each flag."""

from __future__ import annotations

import functools
import inspect

from typer.core import TyperOption

from engine.cli.app import RulesetsOption, app


def _flag_type(self, ctx):
    # typer labels every flag `<bool>` in the help; a flag takes no value, so show none.
    if self.is_flag and self.metavar is None:
        return None
    return _value_type(self, ctx)


_value_type = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type


def _use_rulesets(folders) -> None:
    from engine.rules import files

    if folders:
        files.add_user_roots(folders)


def with_rulesets_option(callback):
    """`callback` taking one more option, `--rulesets DIR` (repeatable), applied first."""
    signature = inspect.signature(callback, eval_str=True)  # typer reads the evaluated types
    if "rulesets_dirs" in signature.parameters:
        return callback

    @functools.wraps(callback)
    def command(*args, rulesets_dirs=None, **kwargs):
        _use_rulesets(rulesets_dirs)
        return callback(*args, **kwargs)

    extra = inspect.Parameter("rulesets_dirs", inspect.Parameter.KEYWORD_ONLY, default=None,
                              annotation=RulesetsOption)
    command.__signature__ = signature.replace(parameters=[*signature.parameters.values(), extra])
    command.__annotations__ = {**getattr(callback, "__annotations__", {}),
                               "rulesets_dirs": RulesetsOption}
    return command


def finish_commands() -> None:
    """Give every registered command `--rulesets` and its examples (`engine.cli.examples`)."""
    from engine.cli.examples import EXAMPLES, epilog

    for info in app.registered_commands:
        info.callback = with_rulesets_option(info.callback)
        name = info.name or info.callback.__name__
        if name in EXAMPLES and not info.epilog:
            info.epilog = epilog(EXAMPLES[name])
