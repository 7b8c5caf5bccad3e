"""Family and given names (issue 28, item 5): the WOF export wrote "Hélène Dupré" as
NAME=Hélène, Firstname=Dupré, so files sent for rating carried wrong surnames. An entrant
keeps a display name and, apart, a family name and a given name: the CSV import reads them
from their own columns or from one `name` column in the order the director says (and shows
the parts before saving), the WOF export writes them in their places, the WOF and
FlipTheDisc imports keep them as read, and the event file carries them.

Also item 10's parts: the audit line of a CSV import says what was imported, and the
preview shows every column read."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.factories import round_robin_event
from tests.shared_data import load
from tournaments import entrant_names
from tournaments.entrant_names import FAMILY_GIVEN, GIVEN_FAMILY
from tournaments.models import AuditEntry, Entrant
from tournaments.services import entrants, eventfile, events, ftd, wof
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


# -- one written name into its two parts ------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "order", "parts"),
    [
        ("Hélène Dupré", GIVEN_FAMILY, ("Dupré", "Hélène")),
        ("Dupré Hélène", FAMILY_GIVEN, ("Dupré", "Hélène")),
        ("DUPRÉ Hélène", FAMILY_GIVEN, ("DUPRÉ", "Hélène")),
        ("Hélène DUPRÉ", GIVEN_FAMILY, ("DUPRÉ", "Hélène")),
        # a comma always puts the family name first, whatever the order chosen
        ("Dupré, Hélène", GIVEN_FAMILY, ("Dupré", "Hélène")),
        ("Dupré, Hélène", FAMILY_GIVEN, ("Dupré", "Hélène")),
        ("VAN DEN BIGGELAAR Nicky", FAMILY_GIVEN, ("VAN DEN BIGGELAAR", "Nicky")),
        ("Nicky VAN DEN BIGGELAAR", GIVEN_FAMILY, ("VAN DEN BIGGELAAR", "Nicky")),
        ("Nicky van den Biggelaar", GIVEN_FAMILY, ("van den Biggelaar", "Nicky")),
        ("van den Biggelaar Nicky", FAMILY_GIVEN, ("van den Biggelaar", "Nicky")),
        ("Jean Pierre Martin", GIVEN_FAMILY, ("Martin", "Jean Pierre")),
        ("JP Martin", GIVEN_FAMILY, ("Martin", "JP")),
        # a rating list's "SURNAME Given" in a file of given names first, and the reverse:
        # a run of capitals (words of three letters or more) is the family name at either end
        ("TAKANASHI Yusuke", GIVEN_FAMILY, ("TAKANASHI", "Yusuke")),
        ("DE GRAAF Jan C.", GIVEN_FAMILY, ("DE GRAAF", "Jan C.")),
        ("Yusuke TAKANASHI", FAMILY_GIVEN, ("TAKANASHI", "Yusuke")),
        ("Martin JP", FAMILY_GIVEN, ("Martin", "JP")),
        ("Madonna", GIVEN_FAMILY, ("Madonna", "")),
        ("  Hélène   Dupré ", GIVEN_FAMILY, ("Dupré", "Hélène")),
    ],
)
def test_a_written_name_splits_in_the_order_the_director_says(written, order, parts):
    assert entrant_names.split(written, order) == parts


def test_the_guess_for_a_name_typed_without_its_parts_reads_western_order_unless_capitals():
    assert entrant_names.guess("Hélène Dupré") == ("Dupré", "Hélène")
    assert entrant_names.guess("TAKANASHI Yusuke") == ("TAKANASHI", "Yusuke")
    assert entrant_names.guess("Lin, Wei Hao") == ("Lin", "Wei Hao")
    assert entrant_names.guess("JP Martin") == ("Martin", "JP")


# -- the CSV import -----------------------------------------------------------------------------


@pytest.fixture
def empty(director):
    return round_robin_event(director, players=0, slug="names")


def test_csv_family_and_given_name_columns_are_stored_and_make_the_display_name(empty, director):
    text = "family_name,given_name,country\nDupré,Hélène,FRA\nTakanashi,Yusuke,JPN\n"
    preview = entrants.preview_csv(empty, text)
    assert preview.valid, preview.problems
    entrants.import_csv(empty, text, by=director)
    assert list(empty.entrants.values_list("name", "family_name", "given_name")) == [
        ("Hélène Dupré", "Dupré", "Hélène"),
        ("Yusuke Takanashi", "Takanashi", "Yusuke"),
    ]


def test_csv_name_column_is_split_in_the_order_chosen_and_keeps_the_name_as_written(
    empty, director
):
    text = 'name\nDUPRÉ Hélène\n"Takanashi, Yusuke"\n'
    entrants.import_csv(empty, text, by=director, order=FAMILY_GIVEN)
    assert list(empty.entrants.values_list("name", "family_name", "given_name")) == [
        ("DUPRÉ Hélène", "DUPRÉ", "Hélène"),
        ("Takanashi, Yusuke", "Takanashi", "Yusuke"),
    ]


def test_csv_name_column_with_family_and_given_columns_takes_them_as_given(empty, director):
    text = "name,family_name,given_name\nThe Professor,Tamenori,Hideshi\n"
    entrants.import_csv(empty, text, by=director)
    entrant = empty.entrants.get()
    assert (entrant.name, entrant.family_name, entrant.given_name) == (
        "The Professor",
        "Tamenori",
        "Hideshi",
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("rating\n2000\n", "Line 1: the header needs a 'name' or a 'family_name' column."),
        ("given_name\nHélène\n", "Line 1: the header needs a 'name' or a 'family_name' column."),
        ("family_name,given_name\n,Hélène\n", "Line 2: family_name: is empty."),
        ("family_name\n" + "D" * 151 + "\n", "Line 2: family_name: is longer than 150 characters."),
        (
            "family_name,given_name\n" + "D" * 100 + "," + "H" * 60 + "\n",
            "Line 2: given_name: with the family name it makes a name longer than 150 "
            "characters; add a shorter name column.",
        ),
    ],
)
def test_csv_names_that_cannot_be_stored_are_refused_naming_the_column(empty, director, text, said):
    with pytest.raises(ServiceError) as refused:
        entrants.import_csv(empty, text, by=director)
    assert said in refused.value.messages
    assert empty.entrants.count() == 0


def test_an_unknown_name_order_is_refused(empty, director):
    with pytest.raises(ValueError):
        entrants.preview_csv(empty, "name\nAnn Lee\n", order="sideways")


def test_the_audit_line_of_an_import_says_how_many_and_a_few_names(empty, director, client):
    """Item 10: the line read "Entrants imported: ·", with nothing after it."""
    names = [f"Given{n} Family{n}" for n in range(1, 8)]
    entrants.import_csv(empty, "name\n" + "\n".join(names) + "\n", by=director)
    entry = AuditEntry.objects.get(event=empty, action="entrant.imported")
    assert entry.after == {"count": 7, "names": names[:3]}
    client.force_login(director)
    page = html.unescape(client.get(reverse("tournaments:manage", args=["names"])).content.decode())
    line = re.search(r"Entrants imported: [^<]*", page)
    assert line is not None
    assert line.group(0).startswith(
        "Entrants imported: 7 entrants: Given1 Family1, Given2 Family2, Given3 Family3, …"
    )


def test_an_audit_line_stored_before_the_names_still_says_how_many(empty, director, client):
    from django.utils import timezone

    AuditEntry.objects.create(
        event=empty, action="entrant.imported", at=timezone.now(), after={"count": 12}
    )
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=["names"])).content.decode()
    assert "Entrants imported: 12 entrants" in page


# -- the import page ----------------------------------------------------------------------------


@pytest.fixture
def import_url(client, director, empty):
    client.force_login(director)
    return reverse("tournaments:manage_import", args=["names"])


def sealed_of(response) -> str:
    found = re.search(r'name="sealed" value="([^"]+)"', response.content.decode())
    assert found, "the preview carries the checked file to the confirmation"
    return html.unescape(found.group(1))


def cells(page: str) -> list[list[str]]:
    body = page.split('aria-label="Rows of the file"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)
        ]
        for r in rows
    ]


def test_the_import_page_says_the_columns_and_offers_the_name_order(client, import_url):
    page = html.unescape(client.get(import_url).content.decode())
    assert "or family_name and given_name" in page
    assert 'name="order" value="given_family"' in page and "checked" in page
    assert 'name="order" value="family_given"' in page
    assert "Hélène Dupré" in page and "DUPRÉ Hélène" in page


def test_the_preview_shows_every_column_read_and_the_names_as_parsed(client, import_url, empty):
    """Item 10: the preview showed name, rating, seed, country and team only; gender, flags
    and external_id were read and saved unseen."""
    text = (
        "name,rating,seed,country,gender,team,flags,external_id\n"
        "Hélène Dupré,2100,1,fra,f,Paris,group_a; colour=red,5537\n"
    )
    checked = client.post(import_url, {"text": text, "order": "given_family"})
    page = checked.content.decode()
    table = cells(page)
    assert table[0] == [
        "Line",
        "Name",
        "Family name",
        "Given name",
        "Rating",
        "Seed",
        "Country",
        "Gender",
        "Team",
        "Flags",
        "External id",
        "Problems",
    ]
    assert table[1] == [
        "2",
        "Hélène Dupré",
        "Dupré",
        "Hélène",
        "2100",
        "1",
        "FRA",
        "F",
        "Paris",
        "group_a; colour=red",
        "5537",
        "",
    ]
    assert "Names read as given name then family name" in html.unescape(page)
    # the order the preview used is the order saved
    done = client.post(import_url, {"confirm": "1", "sealed": sealed_of(checked)})
    assert done.status_code == 302
    entrant = empty.entrants.get()
    assert (entrant.family_name, entrant.given_name, entrant.gender) == ("Dupré", "Hélène", "F")


def test_the_preview_shows_only_the_columns_in_the_file_and_the_parsed_names(client, import_url):
    checked = client.post(
        import_url, {"text": "name,rating\nDUPRÉ Hélène,2100\n", "order": "family_given"}
    )
    table = cells(checked.content.decode())
    assert table[0] == ["Line", "Name", "Family name", "Given name", "Rating", "Problems"]
    assert table[1] == ["2", "DUPRÉ Hélène", "DUPRÉ", "Hélène", "2100", ""]
    assert "Names read as family name then given name" in html.unescape(checked.content.decode())


def test_the_order_chosen_at_the_check_is_the_one_saved(client, import_url, empty):
    checked = client.post(import_url, {"text": "name\nDupré Hélène\n", "order": "family_given"})
    client.post(import_url, {"confirm": "1", "sealed": sealed_of(checked)})
    assert empty.entrants.get().family_name == "Dupré"


def test_an_unknown_order_is_refused_beside_the_field(client, import_url, empty):
    refused = client.post(import_url, {"text": "name\nAnn Lee\n", "order": "sideways"})
    assert refused.status_code == 422
    assert "Select a valid choice" in refused.content.decode()
    assert empty.entrants.count() == 0


# -- the entrant's form -------------------------------------------------------------------------


def test_the_edit_form_saves_both_names_and_the_audit_says_so(client, director):
    event = round_robin_event(director, players=2, slug="edit-names")
    client.force_login(director)
    url = reverse("tournaments:manage_entrant", args=["edit-names", 1])
    page = client.get(url).content.decode()
    assert 'name="family_name"' in page and 'name="given_name"' in page
    saved = client.post(
        url, {"name": "Hélène Dupré", "family_name": "Dupré", "given_name": "Hélène"}
    )
    assert saved.status_code == 302
    entrant = event.entrants.get(number=1)
    assert (entrant.family_name, entrant.given_name) == ("Dupré", "Hélène")
    change = AuditEntry.objects.get(event=event, action="entrant.changed")
    assert change.after["family_name"] == "Dupré" and change.before["family_name"] == ""


def test_an_entrant_added_with_the_two_names_alone_gets_its_display_name(client, director):
    event = round_robin_event(director, players=0, slug="add-names")
    client.force_login(director)
    url = reverse("tournaments:manage_entrants", args=["add-names"])
    added = client.post(url, {"name": "", "family_name": "Dupré", "given_name": "Hélène"})
    assert added.status_code == 302
    entrant = event.entrants.get()
    assert (entrant.name, entrant.family_name, entrant.given_name) == (
        "Hélène Dupré",
        "Dupré",
        "Hélène",
    )
    refused = client.post(url, {"name": "", "family_name": "", "given_name": ""})
    assert refused.status_code == 200 and event.entrants.count() == 1
    assert "Give a name, or a family name." in refused.content.decode()


def test_the_admin_has_both_fields(admin_client, director):
    event = round_robin_event(director, players=1, slug="admin-names")
    entrant = event.entrants.get()
    page = admin_client.get(reverse("admin:tournaments_entrant_change", args=[entrant.pk]))
    text = page.content.decode()
    assert 'name="family_name"' in text and 'name="given_name"' in text


# -- WOF, FlipTheDisc and the event file --------------------------------------------------------


def woc_event(director, slug="woc-names"):
    event = events.create_event(slug=slug, name="Open", format="woc", by=director)
    events.add_entrant(
        event, name="Hélène Dupré", family_name="Dupré", given_name="Hélène", by=director
    )
    events.add_entrant(event, name="Ann Lee", by=director)  # typed before the parts existed
    events.add_entrant(event, name="TAKANASHI Yusuke", by=director)
    return event


def player_lines(text: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line[3:].split(",")]
        for line in text.splitlines()
        if line.startswith("%_%")
    ]


def test_the_wof_export_writes_the_family_name_as_name_and_the_given_name_as_firstname(
    director,
):
    event = woc_event(director)
    players = {line[1]: line[2] for line in player_lines(wof.export_wof(event))}
    assert players == {"Dupré": "Hélène", "Lee": "Ann", "TAKANASHI": "Yusuke"}


def test_a_wof_import_keeps_name_and_firstname_as_read_and_exports_them_back(director):
    text = (
        "%%Tournament: Open\n"
        "%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n"
        "%_%    5105, VAN DEN BIGGELAAR, Nicky, NLD, 1, 40, 2319\n"
        "%_%    5537, TAKANASHI, Yusuke, JPN, 0, 24, 2499\n"
        "%Round: 1\n"
        "  5105 (40)>(24) 5537 B\n"
    )
    event = wof.import_wof(text, by=director, slug="wof-names")
    assert list(event.entrants.values_list("name", "family_name", "given_name")) == [
        ("VAN DEN BIGGELAAR Nicky", "VAN DEN BIGGELAAR", "Nicky"),
        ("TAKANASHI Yusuke", "TAKANASHI", "Yusuke"),
    ]
    lines = player_lines(wof.export_wof(event))
    assert [line[1:3] for line in lines] == [
        ["VAN DEN BIGGELAAR", "Nicky"],
        ["TAKANASHI", "Yusuke"],
    ]


def test_a_flipthedisc_import_keeps_surname_and_name_as_given():
    data = load("ftd_israeli_championship_2026.json")
    event = ftd.import_ftd(data, by=None, slug="ftd-names")
    given = {(e["surname"], e["name"]) for e in data["entrants"]}
    kept = set(event.entrants.values_list("family_name", "given_name"))
    assert kept == given and ("Wiener", "Izak") in kept
    assert event.entrants.get(family_name="Wiener").name == "Wiener Izak"  # shown as before


def test_the_event_file_carries_both_names_and_round_trips(director):
    event = woc_event(director, slug="file-names")
    data = eventfile.export_event(event)
    assert [(e["family_name"], e["given_name"]) for e in data["entrants"]] == [
        ("Dupré", "Hélène"),
        ("", ""),
        ("", ""),
    ]
    data["event"]["slug"] = "file-names-again"
    again = eventfile.import_event(data, by=director)
    copy = eventfile.export_event(again)
    copy["event"]["slug"] = data["event"]["slug"]
    assert copy["entrants"] == data["entrants"]


def test_an_event_file_without_the_names_still_imports(director):
    event = woc_event(director, slug="old-file")
    data = eventfile.export_event(event)
    data["event"]["slug"] = "old-file-again"
    for entrant in data["entrants"]:
        del entrant["family_name"], entrant["given_name"]
    data["entrants"][1]["flags"] = {"wof": {"name": "LEE", "first": "Ann"}}  # WOF-imported then
    again = eventfile.import_event(data, by=director)
    assert list(again.entrants.values_list("family_name", "given_name")) == [
        ("", ""),
        ("LEE", "Ann"),
        ("", ""),
    ]


def test_the_event_file_refuses_a_family_name_that_is_not_text(director):
    data = eventfile.export_event(woc_event(director, slug="bad-names"))
    data["event"]["slug"] = "bad-names-again"
    data["entrants"][0]["family_name"] = 7
    with pytest.raises(ServiceError) as refused:
        eventfile.import_event(data, by=director)
    assert "entrants[0].family_name: must be text; got 7." in refused.value.messages
    assert not Entrant.objects.filter(event__slug="bad-names-again").exists()


def test_the_migration_takes_the_names_a_wof_import_kept_and_splits_no_other(director):
    """Migration 0012: NAME and Firstname kept in flags.wof are the parts; any other name
    stays without parts (a split would be a guess stored as a fact)."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0012_entrant_names_from_wof_files")
    event = round_robin_event(director, players=0, slug="migrated")
    wof_flags = {"wof": {"name": "VAN DEN BIGGELAAR", "first": "Nicky", "new": True}}
    events.add_entrant(event, name="VAN DEN BIGGELAAR Nicky", flags=wof_flags, by=director)
    events.add_entrant(event, name="Hélène Dupré", by=director)
    events.add_entrant(event, name="Player 3", flags={"wof": {"listed": False}}, by=director)
    migration.names_read_from_wof_files(apps, None)
    assert list(event.entrants.values_list("family_name", "given_name")) == [
        ("VAN DEN BIGGELAAR", "Nicky"),
        ("", ""),
        ("", ""),
    ]
