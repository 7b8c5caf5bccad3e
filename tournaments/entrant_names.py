"""An entrant's family and given names out of one written name (issue 28, item 5).

Plain Python, no Django: the CSV import splits a single ``name`` column in the order the
director chose on the import page (and shows the parts before saving); the WOF export guesses
for an entrant typed without its parts. The rules, in this order:

- a comma puts the family name first, whatever the order: "Dupré, Hélène";
- on the side where the order puts the family name, a run of words in capitals is the family
  name ("VAN DEN BIGGELAAR Nicky", "Hélène DUPRÉ"), as rating lists write it;
- on the other side, a run of capitals with a word of three letters or more in it is the
  family name too, against the order: a rating list's "TAKANASHI Yusuke" in a file of given
  names first (initials, "JP Martin", are not such a run; nor is "LI Wei": choose the order);
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
    if order == GIVEN_FAMILY and _surname_run(words):
        order = FAMILY_GIVEN
    elif order == FAMILY_GIVEN and _surname_run(words[::-1]):
        order = GIVEN_FAMILY
    if order == FAMILY_GIVEN:
        size = _run(words)
        return " ".join(words[:size]), " ".join(words[size:])
    size = _run(words[::-1], particles_before=True)
    return " ".join(words[-size:]), " ".join(words[:-size])


def guess(written: str) -> tuple[str, str]:
    """The parts of a name typed without them: read as given name first, so that a comma or
    leading capitals ("TAKANASHI Yusuke") still put the family name first."""
    return split(written, GIVEN_FAMILY)


def display(family: str, given: str) -> str:
    """The name the pages show for parts typed apart: given name first."""
    return f"{given.strip()} {family.strip()}".strip()


def _capitals(word: str) -> bool:
    return word.isupper() and sum(c.isalpha() for c in word) > 1


def _surname_run(words: list[str]) -> bool:
    """Whether ``words`` start with a run of capitals with a word of three letters or more in
    it ("TAKANASHI", "DE GRAAF"; not initials: "JP") and end with a word that is not."""
    size = 0
    while size < len(words) - 1 and _capitals(words[size]):
        size += 1
    return size > 0 and any(sum(c.isalpha() for c in w) > 2 for w in words[:size])


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
