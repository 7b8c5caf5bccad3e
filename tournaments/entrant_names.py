"""An entrant's family and given names out of one written name (issue 28, item 5).

Plain Python, no Django: the CSV import splits a single ``name`` column in the order the
director chose on the import page (and shows the parts before saving); the WOF export guesses
for an entrant typed without its parts. The rules, in this order:

- a comma puts the family name first, whatever the order: "Dupré, Hélène";
- on the side where the order puts the family name, a run of words in capitals is the family
  name ("VAN DEN BIGGELAAR Nicky", "Hélène DUPRÉ"), as rating lists write it;
- words starting in lower case next to it belong to it ("Nicky van den Biggelaar");
- else the family name is one word: the first ("Dupré Hélène") or the last ("Hélène Dupré");
- a name of one word is a family name alone.
"""

from __future__ import annotations

GIVEN_FAMILY = "given_family"  # "Hélène Dupré"
FAMILY_GIVEN = "family_given"  # "DUPRÉ Hélène", "Dupré Hélène", "Dupré, Hélène"
ORDERS = (GIVEN_FAMILY, FAMILY_GIVEN)


def split(written: str, order: str) -> tuple[str, str]:
    """(family name, given name) of ``written`` read in ``order`` (see the module)."""
    if order not in ORDERS:
        raise ValueError(f"unknown name order {order!r}; the orders are {', '.join(ORDERS)}")
    text = " ".join(written.split())
    if "," in text:
        family, _, given = text.partition(",")
        return family.strip(), given.strip()
    words = text.split()
    if len(words) < 2:
        return text, ""
    if order == FAMILY_GIVEN:
        size = _run(words)
        return " ".join(words[:size]), " ".join(words[size:])
    size = _run(words[::-1], particles_before=True)
    return " ".join(words[-size:]), " ".join(words[:-size])


def guess(written: str) -> tuple[str, str]:
    """The parts of a name typed without them: family name first when the name says so (a
    comma, or leading capitals as in "TAKANASHI Yusuke"), else given name first."""
    words = written.split()
    leading_capitals = len(words) > 1 and _capitals(words[0]) and not _capitals(words[-1])
    return split(written, FAMILY_GIVEN if leading_capitals else GIVEN_FAMILY)


def display(family: str, given: str) -> str:
    """The name the pages show for parts typed apart: given name first."""
    return f"{given.strip()} {family.strip()}".strip()


def _capitals(word: str) -> bool:
    return word.isupper() and sum(c.isalpha() for c in word) > 1


def _run(words: list[str], *, particles_before: bool = False) -> int:
    """How many words from the start of ``words`` (the family name's end of the name) make
    the family name; at least one, and one word is left for the given name."""
    most = len(words) - 1
    size = 0
    while size < most and _capitals(words[size]):
        size += 1
    if size:
        return size
    if particles_before:  # read backwards: "Biggelaar den van Nicky"
        size = 1
        while size < most and words[size][:1].islower():
            size += 1
        return size
    while size < most and words[size][:1].islower():  # "van den Biggelaar Nicky"
        size += 1
    return size + 1 if size < most else size
