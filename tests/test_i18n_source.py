"""No player-facing text bypasses the translation layer: a checker over the source (AST).

A text is player-facing where it is passed to Discord (a message's content, a button's label, an embed, a
select, an attachment's description, an autocomplete choice made at run time), raised as a `UserError`,
raised by an engine as a move or options error, offered as a one-word move's label, or drawn on an image.
There it must not be a literal with words in it (nor an f-string whose literal parts have words): it must
come from the layer (`tr(...)`, `Text(...)`, `wording.text(...)`) or be data (a mention, a number, a name).
Command and option names, descriptions and choices declared on the commands are translated by the command
translator, so they are not checked here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORDS = re.compile(r"[A-Za-z]{2}")


@dataclass(frozen=True)
class Sink:
    """Where text reaches a player: the positions and keywords of a call that carry text."""

    positions: tuple[int, ...] = ()
    keywords: tuple[str, ...] = ()
    in_functions_only: bool = False
    """Only calls inside a function body (a module-level `Choice` is a command choice, translated by the
    command translator)."""


DISCORD_SINKS = {
    "send_message": Sink((0,), ("content",)),
    "send": Sink((0,), ("content",)),
    "edit_message": Sink((), ("content",)),
    "edit_original_response": Sink((), ("content",)),
    "edit": Sink((), ("content",)),
    "UserError": Sink((0,)),
    "button": Sink((3,), ("label",)),
    "Button": Sink((), ("label",)),
    "TesseraButton": Sink((), ("label",)),
    "SelectOption": Sink((), ("label", "description")),
    "Select": Sink((), ("placeholder",)),
    "Embed": Sink((), ("title", "description")),
    "add_field": Sink((), ("name", "value")),
    "set_footer": Sink((), ("text",)),
    "File": Sink((), ("description",)),
    "Choice": Sink((), ("name",), in_functions_only=True),
}
GAME_SINKS = {
    name: Sink((0,)) for name in ("InvalidMove", "IllegalMove", "GameOver", "InvalidOptions", "MoveError")
} | {"WordMove": Sink((1,), ("label",))}
RENDERER_SINKS = {"draw_text": Sink((3,)), "fit_text": Sink((0,))}

CHECKED = {
    "cogs": DISCORD_SINKS,
    "bot": DISCORD_SINKS,
    "games": GAME_SINKS,
    "renderer": RENDERER_SINKS,
    "examples": GAME_SINKS | RENDERER_SINKS,  # game packages: their engines and drawers
}
SKIPPED = ("bot/service", "bot/i18n")
"""The service speaks through error templates (checked by the catalog tests); bot/i18n is the layer."""


def has_words(node: ast.expr) -> bool:
    """Whether an expression is literal text with words in it (outside any call, which may be the layer)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(WORDS.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(has_words(part) for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.BinOp):
        return has_words(node.left) or has_words(node.right)
    if isinstance(node, ast.IfExp):
        return has_words(node.body) or has_words(node.orelse)
    return False


def callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def bypasses(source: str, sinks: dict[str, Sink]) -> Iterator[tuple[int, str]]:
    """(line, call) for every player-facing argument of `source` that is raw text."""
    tree = ast.parse(source)
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):  # the body, not the decorators
            in_function.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: n.lineno)
    for node in calls:
        name = callee(node)
        sink = sinks.get(name or "")
        if sink is None or (sink.in_functions_only and id(node) not in in_function):
            continue
        texts = [node.args[i] for i in sink.positions if i < len(node.args)]
        texts += [k.value for k in node.keywords if k.arg in sink.keywords]
        for text in texts:
            if has_words(text):
                yield node.lineno, f"{name}({ast.unparse(text)[:60]})"


TRANSLATOR_NAMES = {"tr", "public"}
"""The names a translator goes by: `python -m bot.i18n update` extracts the texts passed to calls of them."""
TRANSLATOR_MAKERS = {"for_user", "public_tr", "tr_for", "for_locale", "guild_locale"}


def unextracted(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every translator the extraction would not see: one held under another name (an
    assignment or a parameter typed `Tr`), or called without a name (``for_user(interaction)("...")``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            value = node.value.value if isinstance(node.value, ast.Await) else node.value
            if isinstance(value, ast.Call) and callee(value) in TRANSLATOR_MAKERS:
                for target in node.targets:
                    if not (isinstance(target, ast.Name) and target.id in TRANSLATOR_NAMES):
                        yield node.lineno, f"translator named {ast.unparse(target)}"
        elif isinstance(node, ast.arg):
            annotation = ast.unparse(node.annotation) if node.annotation is not None else ""
            if annotation.split(" | ")[0] == "Tr" and node.arg not in TRANSLATOR_NAMES:
                yield node.lineno, f"translator parameter named {node.arg}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Call)
            and node.args
            and has_words(node.args[0])
        ):
            yield node.lineno, f"unnamed translator call {ast.unparse(node)[:60]}"


@pytest.mark.parametrize("folder", ["bot", "cogs"])
def test_translators_go_by_the_names_the_extraction_knows(folder: str) -> None:
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path.relative_to(ROOT).as_posix().startswith(SKIPPED):
            continue
        found = list(unextracted(path.read_text(encoding="utf-8")))
        assert not found, f"{path.relative_to(ROOT)}: {found}"


def test_the_name_check_finds_translators_it_could_not_extract() -> None:
    source = """
async def handler(interaction, words: Tr, tr: Tr):
    mine = for_user(interaction)
    public = await runtime.public_tr(guild_id)
    await interaction.response.send_message(for_user(interaction)("You resigned."))
"""
    assert sorted(line for line, _ in unextracted(source)) == [2, 3, 5]


def source_files() -> Iterator[tuple[Path, dict[str, Sink]]]:
    for folder, sinks in CHECKED.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not relative.startswith(SKIPPED):
                yield path, sinks


@pytest.mark.parametrize(("path", "sinks"), list(source_files()), ids=lambda p: getattr(p, "name", ""))
def test_no_player_facing_text_bypasses_the_translation_layer(path: Path, sinks: dict[str, Sink]) -> None:
    found = list(bypasses(path.read_text(encoding="utf-8"), sinks))
    assert not found, f"untranslated player-facing text in {path.relative_to(ROOT)}: {found}"


def test_the_checker_finds_raw_text_and_accepts_the_layer() -> None:
    raw = """
async def handler(interaction, tr):
    await interaction.response.send_message("You resigned.", ephemeral=True)
    await interaction.followup.send(f"Match #{match.id} is over.")
    await interaction.response.edit_message(content="Done: " + tr("x"))
    raise UserError(f"{name} is a bot.")
    return [app_commands.Choice(name="Choose the game first", value="-")]
"""
    assert [line for line, _ in bypasses(raw, DISCORD_SINKS)] == [3, 4, 5, 6, 7]
    layered = """
CHOICES = [app_commands.Choice(name="10 minutes", value=10)]
async def handler(interaction, tr):
    await interaction.response.send_message(tr("You resigned."), ephemeral=True)
    await interaction.followup.send(f"<@{user.id}>\\n{tr('Match #{match_id} is over.', match_id=1)}")
    raise UserError(Text("{name} is a bot.", name=name))
    return [app_commands.Choice(name=tr("Choose the game first"), value="-")]
"""
    assert list(bypasses(layered, DISCORD_SINKS)) == []
    engine = 'raise IllegalMove(f"{label} is neutral")\nWordMove("pass", "Pass")'
    assert [line for line, _ in bypasses(engine, GAME_SINKS)] == [1, 2]
