"""Issue 30 step 6: "for a WOC or round-robin event, 'Send to the rating officer' validates
the WOF file (every game has discs or is marked a forfeit, names in their places, the
header's fields), shows what will be sent, and mails it to the address in the settings,
keeping a copy and the date sent on the event; `manage.py export_wof --check` prints the
same validation." """

from __future__ import annotations

import io

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse

from rules.formats.woc.wof_validate import validate
from tests.factories import play_round, round_robin_event
from tests.tournaments.test_format_woc_web import qualified_event
from tournaments.models import AuditEntry, Entrant, Event, Game, RatingSubmission
from tournaments.services import rating_report
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

OFFICER = "ratings@wof.example"
HEADER = {"Country": "France", "Date": "01/08/2026", "Sender": "Ada Director"}


@pytest.fixture
def officer(settings):
    settings.ARBITER_RATING_OFFICER_EMAIL = OFFICER
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return OFFICER


def _named(event: Event) -> Event:
    """Each entrant's family and given names typed apart: the names are in their places."""
    for entrant in event.entrants.all():
        given, family = entrant.name.rsplit(" ", 1) if " " in entrant.name else ("", "")
        Entrant.objects.filter(pk=entrant.pk).update(
            family_name=family.upper() if family.isalpha() else "DOE",
            given_name=given or "Jo",
        )
    return event


def _discs_rr(director, slug="rr-wof") -> Event:
    event = round_robin_event(director, players=4, slug=slug)
    for index, entrant in enumerate(event.entrants.order_by("number")):
        Entrant.objects.filter(pk=entrant.pk).update(
            family_name=["DUPRE", "MARTIN", "TANAKA", "OKAFOR"][index],
            given_name=["Helene", "Paul", "Yuki", "Ada"][index],
        )
    play_round(event, director, scores=lambda match: [40, 24])
    event.refresh_from_db()
    return event


def _findings(event: Event, header=HEADER) -> list[str]:
    return [f.code for f in rating_report.prepare(event, header).findings]


# -- each rule, on the file as sent -----------------------------------------------------


def test_a_ready_round_robin_has_no_finding(director):
    event = _discs_rr(director)
    prepared = rating_report.prepare(event, HEADER)
    assert prepared.findings == []
    assert "%%Country: France" in prepared.text and "%%Sender: Ada Director" in prepared.text
    # round robin roles: seat 0 plays White, so Black is the second seat's entrant
    assert "(24)<(40)" in prepared.text


def test_the_headers_fields_are_filled_in(director):
    event = _discs_rr(director)
    findings = rating_report.prepare(event, {"Country": "", "Sender": ""}).findings
    empty = {(f.field, f.code) for f in findings}
    assert ("Country", "wof.check.header_empty") in empty
    assert ("Sender", "wof.check.header_empty") in empty
    lines = rating_report.prepare(event, {}).text.splitlines()
    country = next(f for f in findings if f.field == "Country")
    assert lines[country.line - 1].startswith("%%Country")


def test_the_date_is_day_month_year():
    games = "%Round: 1\n     1 (40)>(24)      2\n"
    text = "%%Tournament: T\n%%Country: F\n%%Date: March 2026\n%%Sender: S\n" + games
    (finding,) = validate(text)
    assert (finding.line, finding.field, finding.code) == (3, "Date", "wof.check.header_date")
    ok = "%%Tournament: T\n%%Country: F\n%%Date: 01/03/2026 - 02/03/2026\n%%Sender: S\n"
    assert validate(ok + games) == []


def test_names_in_their_places(director):
    """A name typed as one field is split by a guess: a warning naming the line; a NAME
    with digits in it ("Player 1" split as NAME "1") is an error."""
    event = round_robin_event(director, players=4, slug="rr-names")
    play_round(event, director, scores=lambda match: [40, 24])
    prepared = rating_report.prepare(event, HEADER)
    lines = prepared.text.splitlines()
    digits = [f for f in prepared.findings if f.code == "wof.check.name_digits"]
    guessed = [f for f in prepared.findings if f.code == "wof.check.name_guessed"]
    assert len(digits) == 4 and len(guessed) == 4
    assert all(f.field == "NAME" and lines[f.line - 1].startswith("%_%") for f in digits)
    assert {f.severity for f in guessed} == {"warning"}
    assert {f.severity for f in digits} == {"error"}


def test_an_empty_firstname_is_an_error():
    text = (
        "%%Tournament: T\n%%Country: F\n%%Date: 01/03/2026\n%%Sender: S\n"
        "%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n"
        "%_%       1, DUPRE, , FRA, 1, 40, 2000\n"
        "%_%       2, MARTIN, Paul, FRA, 0, 24, 1900\n"
        "%Round: 1\n"
        "     1 (40)>(24)      2\n"
    )
    (finding,) = validate(text)
    assert (finding.line, finding.field, finding.code) == (6, "Firstname", "wof.check.name_empty")


def test_every_game_has_discs_or_is_a_forfeit(director):
    """A round robin scored 1-0 writes "(1)>(0)": not discs. A forfeit is a comment, not a
    game: it needs none."""
    event = round_robin_event(director, players=4, slug="rr-nodiscs")
    _named(event)
    play_round(event, director, scores=lambda match: [1, 0])
    prepared = rating_report.prepare(event, HEADER)
    few = [f for f in prepared.findings if f.code == "wof.check.few_discs"]
    assert len(few) == 2 and all(f.field == "discs" for f in few)
    lines = prepared.text.splitlines()
    assert all("(01)" in lines[f.line - 1] and "(00)" in lines[f.line - 1] for f in few)
    # the director marks the games forfeits: no finding about discs is left
    Game.objects.filter(match__round__event=event).update(ending="forfeit")
    event.refresh_from_db()
    prepared = rating_report.prepare(event, HEADER)
    assert not [f for f in prepared.findings if f.field == "discs"]
    assert "% not played" in prepared.text


def test_a_result_without_discs_is_an_error():
    text = (
        "%%Tournament: T\n%%Country: F\n%%Date: 01/03/2026\n%%Sender: S\n"
        "%Round: 1\n"
        "  11770 > 11755\n"
    )
    (finding,) = validate(text)
    assert (finding.line, finding.field, finding.code) == (6, "discs", "wof.check.no_discs")


def test_the_list_agrees_with_the_games():
    text = (
        "%%Tournament: T\n%%Country: F\n%%Date: 01/03/2026\n%%Sender: S\n"
        "%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n"
        "%_%       1, DUPRE, Helene, FRA, 1, 41, 2000\n"
        "%_%       2, MARTIN, Paul, FRA, 0, 24, 1900\n"
        "%Round: 1\n"
        "     1 (40)>(24)      2\n"
    )
    (finding,) = validate(text)
    assert (finding.line, finding.field, finding.code) == (6, "disc-count", "wof.check.list")


def test_a_woc_event_checks_too(director):
    event = _named(qualified_event(3))
    prepared = rating_report.prepare(event, HEADER)
    assert prepared.errors == [], [f.text for f in prepared.errors]
    assert prepared.text.count("%Round:") >= 1


def test_other_formats_are_refused(director):
    from tests.factories import freestyle_event

    with pytest.raises(ServiceError, match="WOC or round-robin"):
        rating_report.prepare(freestyle_event(director, players=4, slug="fs-wof"), HEADER)


# -- the command ------------------------------------------------------------------------


def test_export_wof_check_prints_the_same_findings(director):
    event = round_robin_event(director, players=4, slug="rr-cmd")
    play_round(event, director, scores=lambda match: [1, 0])
    out = io.StringIO()
    with pytest.raises(CommandError, match="problems to fix"):
        call_command("export_wof", event.slug, "--check", "--country", "France", stdout=out)
    printed = out.getvalue().splitlines()
    findings = rating_report.said(rating_report.prepare(event, {"Country": "France"}).findings)
    assert len(printed) == len(findings) + 1
    for line, finding in zip(printed, findings, strict=False):
        assert line.startswith(f"rr-cmd.elo:line {finding['line']}, {finding['field']}: ")
        assert line.endswith(finding["text"])
    assert "rr-cmd.elo:line 4, Sender: error: The header's Sender is empty" in out.getvalue()
    ready = _discs_rr(director, slug="rr-cmd-ok")
    out = io.StringIO()
    call_command(
        "export_wof",
        ready.slug,
        "--check",
        "--country",
        "F",
        "--date",
        "1/8/2026",
        "--sender",
        "S",
        stdout=out,
    )
    assert out.getvalue() == "0 errors, 0 warnings.\n"


# -- sending ----------------------------------------------------------------------------


def test_send_keeps_a_copy_mails_it_after_commit_and_audits(
    director, officer, django_capture_on_commit_callbacks
):
    event = _discs_rr(director)
    prepared = rating_report.prepare(event, HEADER)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submission = rating_report.send(event, HEADER, prepared.token, by=director)
        assert mail.outbox == []  # nothing leaves before the commit
    assert len(callbacks) == 1
    for callback in callbacks:
        callback()
    (sent,) = mail.outbox
    assert sent.to == [OFFICER]
    ((filename, content, mimetype),) = sent.attachments
    assert filename == "rr-wof.elo" and mimetype.startswith("text/plain")
    submission.refresh_from_db()
    assert content == submission.text
    assert submission.mailed_at is not None and submission.confirmed_at is not None
    assert submission.header == HEADER and submission.sent_by == director
    # the file as previewed, but for its creation time
    strip = [line for line in prepared.text.splitlines() if "CreationDate" not in line]
    assert [line for line in submission.text.splitlines() if "CreationDate" not in line] == strip
    entry = AuditEntry.objects.get(event=event, action="rating_report.sent")
    assert entry.after["recipient"] == OFFICER and entry.actor == director
    # the task may run twice: the copy is mailed once
    assert rating_report.deliver(submission.pk) is False
    assert len(mail.outbox) == 1
    # the next file starts from the header sent
    assert rating_report.typed_header(event) == HEADER


def test_a_stale_page_cannot_send(director, officer):
    event = _discs_rr(director)
    token = rating_report.prepare(event, HEADER).token
    game = Game.objects.filter(match__round__event=event).first()
    from tournaments.services import results

    match = game.match
    results.record(match, [{"scores": [20, 44]}], expected_version=match.version, by=director)
    with pytest.raises(ServiceError, match="out of date"):
        rating_report.send(event, HEADER, token, by=director)
    assert not RatingSubmission.objects.exists()


def test_a_file_with_problems_or_no_address_is_not_sent(director, settings, officer):
    event = _discs_rr(director)
    token = rating_report.prepare(event, {}).token
    with pytest.raises(ServiceError, match="problems"):
        rating_report.send(event, {"Country": "", "Sender": ""}, token, by=director)
    settings.ARBITER_RATING_OFFICER_EMAIL = ""
    with pytest.raises(ServiceError, match="No rating officer"):
        rating_report.send(event, HEADER, token, by=director)
    assert not RatingSubmission.objects.exists() and mail.outbox == []


def test_a_mail_server_down_is_retried_by_the_task(director, officer, settings):
    event = _discs_rr(director)
    settings.EMAIL_BACKEND = "tests.tournaments.test_rating_report.DownBackend"
    submission = rating_report.send(
        event, HEADER, rating_report.prepare(event, HEADER).token, by=director
    )
    with pytest.raises(rating_report.MailNotSent):
        rating_report.deliver(submission.pk)
    submission.refresh_from_db()
    assert submission.mailed_at is None and "down" in submission.last_error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert rating_report.deliver(submission.pk) is True
    assert len(mail.outbox) == 1


class DownBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("the mail server is down")


# -- the page ---------------------------------------------------------------------------


def _page(event: Event) -> str:
    return reverse("tournaments:reports_rating", args=[event.slug])


def test_the_page_lists_the_check_shows_the_file_and_sends(
    client, director, officer, django_capture_on_commit_callbacks
):
    event = _discs_rr(director)
    event.directors.add(director)
    client.force_login(director)
    page = client.get(_page(event))
    body = page.content.decode()
    assert page.status_code == 200
    assert "The header&#x27;s Country is empty" in body  # nothing typed yet
    assert 'id="line-1"' in body and "%%Tournament: RR rr-wof" in body
    assert "Send to the rating officer</button>" not in body  # problems first
    typed = {"country": "France", "date": "01/08/2026", "sender": "Ada Director"}
    checked = client.get(_page(event), typed)
    body = checked.content.decode()
    assert "No problem found" in body and "%%Country: France" in body
    token = checked.context["prepared"].token
    with django_capture_on_commit_callbacks(execute=True):  # the task runs eagerly in tests
        sent = client.post(_page(event), {**typed, "token": token})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1
    after = client.get(_page(event)).content.decode()
    assert "rr-wof.elo is kept and mailed to ratings@wof.example" in after
    assert "mailed" in after and "%%Sender: Ada Director" in after
    # the same page sent again (a second click, a reload): stale, nothing sent twice
    for token_sent in (token, "0.0.0"):
        again = client.post(_page(event), {**typed, "token": token_sent})
        assert again.status_code == 409 and "out of date" in again.content.decode()
    assert RatingSubmission.objects.count() == 1 and len(mail.outbox) == 1


def test_the_reports_page_links_it_for_woc_and_round_robin_only(client, director):
    from tests.factories import freestyle_event

    client.force_login(director)
    for event, linked in (
        (_discs_rr(director), True),
        (freestyle_event(director, players=4, slug="fs-link"), False),
    ):
        event.directors.add(director)
        body = client.get(reverse("tournaments:reports_index", args=[event.slug])).content
        assert (b"Send to the rating officer" in body) == linked
