"""A game database read in one of its languages.

Text may be given per language, as a mapping of language codes (`name: {en: Pebble, de: Kiesel}`)
or as a sibling key (`name@de: Kiesel`, which is how a spreadsheet's `name@de` column arrives). Reading
in language L keeps L's words; where a text has no L words, the default language's stand in and the
text is recorded as a gap, named by its file, line (or spreadsheet row) and field, for `pnp check`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.data.format.errors import Problem
from pnp.data.format.located import Located, LocatedList, line_of
from pnp.data.format.model import LANGUAGE_CODE, Gap

SHARED = ("key", "tag")  # what collation codes are made of: never per language


def declared(data: Any) -> tuple[str, ...]:
    """The languages a raw database declares (game.languages), or () when it declares none or not as a list
    of codes (the model's check reports that)."""
    game = data.get("game") if isinstance(data, dict) else None
    found = game.get("languages") if isinstance(game, dict) else None
    if not isinstance(found, list) or not found:
        return ()
    if not all(isinstance(c, str) and LANGUAGE_CODE.fullmatch(c) for c in found) or len(set(found)) != len(
        found
    ):
        return ()
    return tuple(found)


def in_language(
    data: Any, file: str, languages: tuple[str, ...], lang: str
) -> tuple[Any, list[Gap], list[Problem]]:
    """The raw database `data` with every per-language text resolved to `lang`; the gaps and problems."""
    walk = _Walk(file, languages, lang)
    return walk.value(data, "", line_of(data)), walk.gaps, walk.problems


@dataclass
class _Walk:
    file: str
    languages: tuple[str, ...]
    lang: str
    gaps: list[Gap] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def value(self, node: Any, path: str, line: int | None, row: Any = None) -> Any:
        if isinstance(node, Located):
            if self._is_text(node):
                if path.rsplit(".", 1)[-1] in SHARED:
                    self.problems.append(
                        Problem(
                            self.file,
                            line,
                            path,
                            "a key or tag is the same in every language "
                            "(collation codes are made from it): give one value",
                        )
                    )
                return self._pick(dict(node), path, line, row, node)
            return self._mapping(node, path)
        if isinstance(node, LocatedList):
            out = LocatedList(
                self.value(v, f"{path}[{_label(v, i)}]", line_of(node, i)) for i, v in enumerate(node)
            )
            out.line, out.item_lines = node.line, list(getattr(node, "item_lines", []))
            return out
        return node

    def _is_text(self, node: Located) -> bool:
        """A mapping of language codes to text, one of them declared."""
        return (
            bool(node)
            and all(isinstance(k, str) and LANGUAGE_CODE.fullmatch(k) for k in node)
            and any(k in self.languages for k in node)
            and all(
                v is None or (isinstance(v, (str, int, float)) and not isinstance(v, bool))
                for v in node.values()
            )
        )

    def _mapping(self, node: Located, path: str) -> Located:
        out = Located()
        out.line, out.key_lines, out.source = node.line, dict(getattr(node, "key_lines", {})), node.source
        suffixed: dict[str, dict[str, Any]] = {}
        for key, v in node.items():
            base, at, code = key.partition("@") if isinstance(key, str) else (key, "", "")
            if at and base and LANGUAGE_CODE.fullmatch(code):
                suffixed.setdefault(base, {})[code] = v
                continue
            out[key] = self.value(v, f"{path}.{key}" if path else str(key), line_of(node, key), node.source)
        for base, texts in suffixed.items():
            where = f"{path}.{base}" if path else base
            line = line_of(node, base) or line_of(node, f"{base}@{next(iter(texts))}")
            given = {self.languages[0]: node.get(base), **texts}
            out[base] = self._pick(given, where, line, node.source, node, suffix=True)
            out.key_lines.setdefault(base, line or node.line)
            kept = out.source
            if kept is not None and self.lang in texts and str(texts[self.lang] or "").strip():
                label, row, columns = kept  # a problem with this text names the column it came from
                out.source = (
                    label,
                    row,
                    {**columns, base: columns.get(f"{base}@{self.lang}", columns.get(base, ""))},
                )
        return out

    def _pick(
        self,
        texts: dict[str, Any],
        path: str,
        line: int | None,
        row: Any,
        node: Located,
        suffix: bool = False,
    ) -> Any:
        """The text in `lang`, else in the default language (a gap), from one per-language text."""
        for code in texts:
            if code not in self.languages:
                shown = f"{path.rsplit('.', 1)[-1]}@{code}" if suffix else code
                self.problems.append(
                    Problem(
                        *self._where(row, line, path, node, code),
                        f"{shown}: language {code!r} "
                        f"is not declared in game.languages ({', '.join(self.languages)})",
                    )
                )
        present = {c: t for c, t in texts.items() if t is not None and str(t).strip()}
        for code in self.languages:
            if code not in present:
                self.gaps.append(Gap(*self._where(row, line, path, node, code), code))
        if self.lang in present:
            return present[self.lang]
        return present.get(self.languages[0], next(iter(present.values()), ""))

    def _where(
        self, row: Any, line: int | None, path: str, node: Located, code: str
    ) -> tuple[str, int | None, str]:
        """(file, line or row, field) of a text: a spreadsheet row's own cell when it came from one."""
        if row is not None:
            label, number, columns = row
            base = path.rsplit(".", 1)[-1]
            column = columns.get(f"{base}@{code}", columns.get(base, f"column {base}@{code}"))
            return str(label), int(number), f"{column} of card {node.get('key')}"
        return self.file, line, path


def _label(item: Any, index: int) -> str:
    """A list item as a field path names it: its key when it has one (a card, a component), else its index."""
    key = item.get("key") if isinstance(item, dict) else None
    return str(key) if isinstance(key, (str, int)) and not isinstance(key, bool) else str(index)
