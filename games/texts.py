"""Words for players that a translation layer can reword: English text that keeps its template and values.

The pure layers (games, the service, the renderer) never know a player's language. Where they write words
for a player (a move in words, a seat's role, an error), they return a `Text`: a `str` that *is* the English
sentence, so code that only needs English is unchanged, and that also remembers its template and values, so
the Discord layer can word it in the player's language (`translated`). Values that are themselves `Text`
(a seat's role inside a move's description) are translated too; other values (cells, names, numbers) are
data and stay as they are.

`N_` marks a constant template for extraction into the message catalogs without translating it here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Translations(Protocol):
    """What a translation needs of a catalog: `gettext.NullTranslations` and `GNUTranslations` fit."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def N_(message: str) -> str:
    """Mark `message` for the message catalogs; it is translated where it is shown."""
    return message


class Text(str):
    """An English sentence with its template and values (see the module doc).

    `Text("{seat} passes", seat=label)` is the str "Black passes"; `Text.ngettext(one, other, n, ...)` picks
    the English singular or plural and keeps both for a language with other plural rules."""

    template: str
    plural: str | None
    number: int
    params: Mapping[str, object]

    def __new__(cls, template: str, /, **params: object) -> Text:
        text = super().__new__(cls, template.format(**params) if params else template)
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

    def translated(self, translations: Translations) -> str:
        """This sentence in the language of `translations` (English where the catalog has no entry)."""
        values = {name: translate(value, translations) for name, value in self.params.items()}
        if self.plural is None:
            template = translations.gettext(self.template)
        else:
            template = translations.ngettext(self.template, self.plural, self.number)
        return template.format(**values) if values else template


def _rebuild(template: str, plural: str | None, count: int, params: dict[str, object]) -> Text:
    if plural is None:
        return Text(template, **params)
    return Text.ngettext(template, plural, count, **params)


def translate(value: object, translations: Translations) -> object:
    """`value` translated if it is a `Text`; any other value is data and comes back unchanged."""
    return value.translated(translations) if isinstance(value, Text) else value
