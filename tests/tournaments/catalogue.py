"""The French catalogue read without polib: the public pages' msgids (found by Django's own
template parser, following includes and extends), and the .po and .mo entries."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass
from pathlib import Path

from django.template import loader
from django.template.base import Node
from django.template.loader_tags import ExtendsNode, IncludeNode
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

from tests.pysource import parse_python

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

# The pages anyone may see (the EVERYONE rows of tests/test_authorization.py) and the error
# pages; what they include or extend is followed from here.
PUBLIC_TEMPLATES = [
    "base.html",
    "403.html",
    "404.html",
    "503.html",
    "rate_limited.html",
    "tournaments/event_list.html",
    "tournaments/event.html",
    "tournaments/round.html",
    "tournaments/round_withdrawn.html",
    "tournaments/standings.html",
    "tournaments/entrant.html",
    "tournaments/_live.html",
    "tournaments/_find.html",
    # rendered once per version and stored (tournaments/views/fragments.py)
    "tournaments/_standings_tables.html",
    "tournaments/_pairings_tables.html",
    "tournaments/projector/round.html",
    "tournaments/projector/standings.html",
    "tournaments/formats/freestyle/bracket.html",
    "tournaments/formats/freestyle/draws.html",
    "tournaments/formats/gokodom/bracket.html",
    "tournaments/formats/bot_contest/boards.html",
    "tournaments/formats/bot_contest/gauntlet.html",
    "tournaments/formats/bot_contest/brackets.html",
    "tournaments/formats/bot_contest/final.html",
    "tournaments/formats/wpf_playoffs/ladder.html",
]


@dataclass(frozen=True)
class Entry:
    msgid: str
    msgstr: str
    context: str
    fuzzy: bool
    plural: bool
    mo_key: object  # its key in a compiled catalogue (GNUTranslations._catalog)


def _literal(expression) -> str | None:
    var = getattr(expression, "var", None)
    literal = getattr(var, "literal", None)
    if isinstance(literal, str):
        return literal
    if isinstance(var, str) and not expression.filters:  # a quoted name, already a str
        return var
    return None


def _msgids_of(nodes) -> tuple[set[tuple[str, str]], set[str]]:
    """(context, msgid) pairs of the translate tags among nodes, and the templates they name."""
    found: set[tuple[str, str]] = set()
    names: set[str] = set()
    for node in nodes.get_nodes_by_type(Node):
        context = ""
        if isinstance(node, TranslateNode | BlockTranslateNode) and node.message_context:
            context = _literal(node.message_context) or ""
        if isinstance(node, TranslateNode):
            text = _literal(node.filter_expression)
            if text is not None and not node.noop:
                found.add((context, text))
        elif isinstance(node, BlockTranslateNode):
            found.add((context, node.render_token_list(node.singular)[0]))
            if node.plural:
                found.add((context, node.render_token_list(node.plural)[0]))
        elif isinstance(node, IncludeNode | ExtendsNode):
            expression = node.template if isinstance(node, IncludeNode) else node.parent_name
            name = _literal(expression)
            if name:
                names.add(name.split("#")[0])
    return found, names


def public_msgids() -> dict[tuple[str, str], str]:
    """Every (context, msgid) of the public pages, with the template it was found in."""
    todo, seen, found = list(PUBLIC_TEMPLATES), set(), {}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        template = loader.get_template(name).template
        ids, names = _msgids_of(template.nodelist)
        for key in ids:
            found.setdefault(key, name)
        todo.extend(names - seen)
    return found


def _unquote(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def po_entries(path: Path = PO) -> list[Entry]:
    """Every entry of a .po file (the header, an empty msgid, left out); a plural gives two,
    its singular (msgstr[0]) and its plural form (msgstr[1])."""
    entries: list[Entry] = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        fields: dict[str, list[str]] = {}
        current = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#"):
                continue
            head = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
            if head:
                current = head.group(1)
                fields[current] = [head.group(2)]
            elif line.startswith('"') and current:
                fields[current].append(line)
        if "msgid" not in fields:
            continue
        msgid = _unquote(fields["msgid"])
        if not msgid:
            continue
        msgstr = _unquote(fields.get("msgstr", fields.get("msgstr[0]", ['""'])))
        context = _unquote(fields.get("msgctxt", ['""']))
        key = f"{context}\x04{msgid}" if context else msgid
        if "msgid_plural" not in fields:
            entries.append(Entry(msgid, msgstr, context, fuzzy, False, key))
            continue
        entries.append(Entry(msgid, msgstr, context, fuzzy, True, (key, 0)))
        plural = _unquote(fields["msgid_plural"])
        many = _unquote(fields.get("msgstr[1]", ['""']))
        entries.append(Entry(plural, many, context, fuzzy, True, (key, 1)))
    return entries


def read_po(path: Path = PO) -> dict[tuple[str, str], Entry]:
    """The entries of a .po file keyed by (context, msgid), as a template names them: a
    plural's singular and its plural form are both keys (the first entry of a text wins)."""
    found: dict[tuple[str, str], Entry] = {}
    for entry in po_entries(path):
        found.setdefault((entry.context, entry.msgid), entry)
    return found


def read_mo(path: Path = MO) -> gettext.GNUTranslations:
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


# The names under which code marks a string (xgettext's keywords for Python, as Django
# calls it): the first string argument is the msgid, pgettext's second after its context.
_MARKERS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
_CONTEXT_MARKERS = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
SOURCE_FOLDERS = ("tournaments", "accounts", "config", "rules")


def _python_msgids(path: Path) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for node in ast.walk(parse_python(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        if name in _MARKERS and args and isinstance(args[0], str):
            found.add(("", args[0]))
            if name.startswith("ngettext") and len(args) > 1 and isinstance(args[1], str):
                found.add(("", args[1]))
        elif name in _CONTEXT_MARKERS and len(args) > 1 and isinstance(args[1], str):
            found.add((args[0] if isinstance(args[0], str) else "", args[1]))
    return found


def source_msgids() -> dict[tuple[str, str], str]:
    """Every (context, msgid) marked in the project's Python and templates, with the file it
    was found in: what `make messages` puts in the .po (rules/ words are collected on their
    own, by tournaments/words.py's catalogue)."""
    found: dict[tuple[str, str], str] = {}
    for folder in SOURCE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for key in _python_msgids(path):
                found.setdefault(key, str(path.relative_to(ROOT)))
    for base in [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]:
        for path in sorted(base.rglob("*")):
            if path.suffix not in {".html", ".txt"}:
                continue
            name = str(path.relative_to(base))
            ids, _names = _msgids_of(loader.get_template(name).template.nodelist)
            for key in ids:
                found.setdefault(key, str(path.relative_to(ROOT)))
    return found
