"""Words for players that a translation layer can reword: English text that keeps its template and values.

The pure layers (games, the service, the renderer) never know a player's language. Where they write words
for a player (a move in words, a seat's role, an error), they return a `Text`: a `str` that *is* the English
sentence, so code that only needs English is unchanged, and that also remembers its template and values, so
the Discord layer can word it in the player's language (`translated`). Values that are themselves `Text`
(a seat's role inside a move's description) are translated too; other values (cells, names, numbers) are
data and stay as they are.

`N_` marks a constant template for extraction into the message catalogs without translating it here.

A template names a slash command with a placeholder: "Start one with {/play}", "{/prefs theme}". In English
it reads "/play"; the Discord layer fills in Discord's clickable mention, shown in each reader's language
(`fill`'s `command`), so translators never write command names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol


class Translations(Protocol):
    """What a translation needs of a catalog: `gettext.NullTranslations` and `GNUTranslations` fit."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def table_numbers(values: Iterable[float]) -> Callable[[float], str]:
    """One way to write every number of a table (scores and tie-breaks, text and image alike), so a column
    never mixes "4½" with "5.25": halves ("2", "2½", "½") when every value is whole or a half, else decimals
    of at most two places ("2", "2.5", "5.25"). Numbers are data: the same in every language."""
    halves = all(float(2 * value).is_integer() for value in values)

    def write(value: float) -> str:
        whole = int(value)
        if value == whole:
            return str(whole)
        if halves:
            return f"{whole}½" if whole else "½"
        return f"{value:.2f}".rstrip("0")

    return write


def N_(message: str) -> str:
    """Mark `message` for the message catalogs; it is translated where it is shown."""
    return message


def plain_command(path: str) -> str:
    """A command as English text names it: "move" -> "/move", "prefs theme" -> "/prefs theme"."""
    return "/" + path


class _Values(dict[str, object]):
    """A template's values; a `{/name}` field is the command `name`, as `command` writes it."""

    def __init__(self, values: Mapping[str, object], command: Callable[[str], str]) -> None:
        super().__init__(values)
        self.command = command

    def __missing__(self, key: str) -> object:
        if key.startswith("/"):
            return self.command(key[1:])
        raise KeyError(key)


def fill(template: str, values: Mapping[str, object], command: Callable[[str], str] = plain_command) -> str:
    """`template` with its values and its command placeholders (`{/move}`) filled in; a template with
    neither is returned as it is (its braces need no escaping)."""
    if not values and "{/" not in template:
        return template
    return template.format_map(_Values(values, command))


class Text(str):
    """An English sentence with its template and values (see the module doc).

    `Text("{seat} passes", seat=label)` is the str "Black passes"; `Text.ngettext(one, other, n, ...)` picks
    the English singular or plural and keeps both for a language with other plural rules."""

    template: str
    plural: str | None
    number: int
    params: Mapping[str, object]

    def __new__(cls, template: str, /, **params: object) -> Text:
        text = super().__new__(cls, fill(template, params))
        text.template, text.plural, text.number, text.params = template, None, 0, params
        return text

    @classmethod
    def ngettext(cls, singular: str, plural: str, n: int, /, **params: object) -> Text:
        """The English form for `n` (singular for 1), keeping both forms for translation."""
        text = cls(singular if n == 1 else plural, **params)
        text.template, text.plural, text.number = singular, plural, n
        return text

    @classmethod
    def of(cls, value: str) -> Text:
        """`value` as a Text: itself if it is one, else a Text of a marked constant (`N_`) or of data."""
        return value if isinstance(value, Text) else cls(value)

    @classmethod
    def concat(cls, *parts: str) -> Text:
        """Pieces of a sentence one after another ("White c1-c3" + ", pushing the sphere to c4"); each
        `Text` piece is translated on its own."""
        template = "".join(f"{{p{i}}}" for i in range(len(parts)))
        return cls(template, **{f"p{i}": part for i, part in enumerate(parts)})

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle (for worker processes) with the template and values, not only the English words."""
        return (_rebuild, (self.template, self.plural, self.number, dict(self.params)))

    def translated(self, translations: Translations, command: Callable[[str], str] = plain_command) -> str:
        """This sentence in the language of `translations` (English where the catalog has no entry), with
        commands named as `command` writes them."""
        values = {name: translate(value, translations, command) for name, value in self.params.items()}
        if self.plural is None:
            template = translations.gettext(self.template)
        else:
            template = translations.ngettext(self.template, self.plural, self.number)
        return fill(template, values, command)


def _rebuild(template: str, plural: str | None, count: int, params: dict[str, object]) -> Text:
    if plural is None:
        return Text(template, **params)
    return Text.ngettext(template, plural, count, **params)


def translate(
    value: object, translations: Translations, command: Callable[[str], str] = plain_command
) -> object:
    """`value` translated if it is a `Text`; any other value is data and comes back unchanged."""
    return value.translated(translations, command) if isinstance(value, Text) else value
