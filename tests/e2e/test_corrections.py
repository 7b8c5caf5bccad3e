"""Issue 14 in a real browser: a director corrects a result of an earlier round through its
preview (nothing saved until confirmed), swaps a pairing with a reason that the public round
page marks, and a player on a phone sees who has clinched first place on the standings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import play_round, round_robin_event
from tests.tournaments.test_contention_pages import player_one_wins_the_rest_draw
from tests.tournaments.test_corrections import four_round_swiss
from tournaments.models import AuditEntry, Match, ResultChange
from tournaments.services import rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_in(context, live_url):
    page = context.new_page()
    page.goto(live_url("accounts:login"))
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pw-director-1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(live_url("event_list"))
    return page


def test_a_correction_is_previewed_then_confirmed(director, desktop, phone, live_url, shot):
    event, r1 = four_round_swiss(director, slug="fix")
    match = r1.matches.order_by("order").first()
    changes = ResultChange.objects.filter(match__round__event=event).count()
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, 1))
    row = page.locator(f"#match-{match.pk}")
    row.locator("input[name=g1-s0]").fill("24")
    row.locator("input[name=g1-s1]").fill("40")
    row.get_by_role("button", name="Preview the correction").click()
    preview = page.get_by_role("region", name="Preview of the correction")
    expect(preview.get_by_text("Nothing is saved yet.")).to_be_visible()
    expect(preview.get_by_text("40-24 → 24-40")).to_be_visible()
    expect(preview.get_by_role("heading", name="Later rounds")).to_be_visible()
    expect(preview.get_by_text("would have been paired differently").first).to_be_visible()
    expect(preview.locator("table.diff-standings tr.moved").first).to_be_visible()
    shot(page, "preview-desktop")
    # nothing saved by the preview
    assert ResultChange.objects.filter(match__round__event=event).count() == changes
    assert Match.objects.get(pk=match.pk).result["summary"] == "40-24"

    # the same preview on a phone, then confirmed there
    small = sign_in(phone, live_url)
    small.goto(live_url("manage_round", event.slug, 1))
    row = small.locator(f"#match-{match.pk}")
    row.locator("input[name=g1-s0]").fill("24")
    row.locator("input[name=g1-s1]").fill("40")
    row.get_by_role("button", name="Preview the correction").click()
    preview = small.get_by_role("region", name="Preview of the correction")
    preview.get_by_label("Why (kept in the log)").fill("score sheet misread")
    shot(small, "preview-phone")
    preview.get_by_role("button", name="Confirm the correction").click()
    expect(small.get_by_text("Correction saved")).to_be_visible()
    shot(small, "confirmed-phone")
    assert Match.objects.get(pk=match.pk).result["summary"] == "24-40"
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.reason == "score sheet misread" and entry.after["change"]["after"] == "24-40"


def test_an_override_needs_a_reason_and_is_marked_publicly(
    director, desktop, phone, live_url, shot
):
    event = round_robin_event(director, players=4, slug="swap")
    draft = rounds.draft_next_round(event, by=director).round
    one = draft.matches.get(participants__entrant__number=1)
    other = draft.matches.exclude(pk=one.pk).get()
    partner = other.participants.order_by("seat").first().entrant.number
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, 1))
    page.get_by_label("Entrant number").fill("1")
    page.get_by_label("swaps places with number").fill(str(partner))
    page.get_by_role("button", name="Swap").click()
    expect(page.get_by_text("This field is required.")).to_be_visible()  # no reason given
    assert not Match.objects.filter(round=draft, overridden=True).exists()
    page.get_by_label("Entrant number").fill("1")
    page.get_by_label("swaps places with number").fill(str(partner))
    page.get_by_label("Reason").fill("Player 1 needs the accessible table")
    page.get_by_role("button", name="Swap").click()
    expect(page.get_by_text("marked as your override")).to_be_visible()
    shot(page, "override-draft")
    page.get_by_role("button", name="Publish").click()

    public = phone.new_page()
    public.goto(live_url("round", event.slug, 1))
    marks = public.get_by_text("changed by the director: Player 1 needs the accessible table")
    expect(marks).to_have_count(2)
    marks.first.click()  # opens the engine's proposal beside the change
    expect(public.get_by_text("The engine proposed:").first).to_be_visible()
    expect(public.get_by_text("The director made it:").first).to_be_visible()
    shot(public, "override-public-phone")
    public.goto(live_url("entrant", event.slug, 1))
    expect(
        public.get_by_text("changed by the director: Player 1 needs the accessible table")
    ).to_be_visible()
    shot(public, "override-entrant-phone")


def test_a_clinched_entrant_is_marked_on_the_public_standings(
    director, desktop, phone, live_url, shot
):
    event = round_robin_event(director, players=6, slug="clinched")
    for _ in range(4):
        play_round(event, director, scores=player_one_wins_the_rest_draw)
    for context, name in ((phone, "phone"), (desktop, "desktop")):
        page = context.new_page()
        page.goto(live_url("standings", event.slug))
        leader = page.locator("table.standings tbody tr", has_text="Player 1")
        mark = leader.locator(".cmark.cm-clinched")
        expect(mark).to_have_text("clinched 1st")
        expect(mark).to_have_attribute(
            "title", re.compile(r"^clinched: Player 1 will finish first")
        )
        expect(page.locator(".cmark.cm-eliminated")).to_have_count(5)
        page.get_by_text("What the outlook means").click()
        shot(page, f"standings-{name}")
    page.goto(live_url("entrant", event.slug, 1))
    outlook = page.locator("#outlook")
    expect(outlook).to_contain_text("clinched 1st")
    expect(outlook).to_contain_text("clinched:")
    shot(page, "entrant-desktop")


def test_a_withdrawal_is_previewed_before_it_is_saved(director, desktop, phone, live_url, shot):
    from tests.tournaments.test_corrections import play, woc_event
    from tournaments.models import Entrant

    event = woc_event(director, slug="leave", rounds_count=4)
    play(event, director)
    rounds.draft_next_round(event, by=director)  # round 2 drafted with everyone in it
    for context, name in ((phone, "phone"), (desktop, "desktop")):
        page = sign_in(context, live_url)
        page.goto(live_url("manage_entrants", event.slug))
        page.locator("#entrant-3").get_by_role("button", name="withdraw").click()
        expect(page.get_by_role("heading", name="Withdraw Player 3?")).to_be_visible()
        expect(page.get_by_text("Nothing is saved yet.")).to_be_visible()
        expect(page.get_by_text("would have been paired differently")).to_be_visible()
        shot(page, f"withdraw-preview-{name}")
        assert Entrant.objects.get(event=event, number=3).status == "active"
    page.get_by_label("Why (kept in the log)").fill("unwell")
    page.get_by_role("button", name="Confirm the withdrawal").click()
    expect(page.get_by_text("Player 3 has withdrawn.")).to_be_visible()
    shot(page, "withdrawn-desktop")
    assert Entrant.objects.get(event=event, number=3).status == "withdrawn"
    entry = AuditEntry.objects.get(event=event, action="correction.withdrawal_confirmed")
    assert entry.reason == "unwell" and entry.after["rounds"][0]["caused"]


def test_gokodom_codes_of_an_earlier_round_are_previewed_then_confirmed(
    director, desktop, phone, live_url, shot
):
    from tests.tournaments.test_corrections_format_screens import _goko_two_rounds, _seats

    event, match = _goko_two_rounds(director, "goko-fix")
    a, b = _seats(match)
    for context, name in ((desktop, "desktop"), (phone, "phone")):
        page = sign_in(context, live_url)
        page.goto(live_url("manage_round", event.slug, 1))
        row = page.locator(f"#match-{match.pk}")
        row.locator(f"select[name=code-{a.number}]").select_option("L")
        row.locator(f"select[name=code-{b.number}]").select_option("W")
        row.get_by_role("button", name="Preview the codes").click()
        preview = page.get_by_role("region", name="Preview of the correction")
        expect(preview.get_by_text("W-L → L-W")).to_be_visible()
        expect(preview.get_by_role("heading", name="Later rounds")).to_be_visible()
        shot(page, f"codes-preview-{name}")
        assert Match.objects.get(pk=match.pk).details["results"][str(a.number)] == "W"
    preview.get_by_label("Why (kept in the log)").fill("players reported it the wrong way")
    preview.get_by_role("button", name="Confirm the correction").click()
    expect(page.get_by_text("Correction saved")).to_be_visible()
    shot(page, "codes-confirmed-phone")
    saved = Match.objects.get(pk=match.pk)
    assert saved.details["results"] == {str(a.number): "L", str(b.number): "W"}
    entry = AuditEntry.objects.get(event=event, action="correction.result_confirmed")
    assert entry.reason == "players reported it the wrong way"
    assert entry.after["change"] == {"before": "W-L", "after": "L-W"}


def test_a_freestyle_withdrawal_during_a_round_is_previewed(director, desktop, live_url, shot):
    from tests.factories import freestyle_event
    from tournaments.models import Entrant

    event = freestyle_event(director, players=16, slug="fs-leave")
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    leaver = rnd.matches.order_by("order")[0].participants.get(seat=0).entrant
    page = sign_in(desktop, live_url)
    page.goto(live_url("freestyle_withdraw", event.slug, leaver.number))
    page.get_by_label("During the round in play").check()
    page.get_by_label("Reason").fill("flight home")
    page.get_by_role("button", name="Preview the withdrawal").click()
    preview = page.get_by_role("region", name="Preview of the withdrawal")
    expect(preview.get_by_text(f"{leaver.name} withdraws during round 1")).to_be_visible()
    shot(page, "freestyle-withdraw-preview")
    assert Entrant.objects.get(pk=leaver.pk).status == "active"
    preview.get_by_role("button", name="Confirm the withdrawal").click()
    expect(page.get_by_text(f"{leaver.name} is withdrawn.")).to_be_visible()
    leaver.refresh_from_db()
    assert leaver.status == "withdrawn" and leaver.withdrawn_after_round == 0
    entry = AuditEntry.objects.get(event=event, action="correction.withdrawal_confirmed")
    assert entry.reason == "flight home"


def test_a_tie_waiting_for_its_tiebreaker_game_is_marked_publicly(director, phone, live_url, shot):
    """Freestyle, "Finally, if need be, there is a tie-breaker game": a group whose five players
    tied every game is complete, but nobody of the five reads "qualified" on the public
    standings before the tiebreaker game; each is marked alive with the reason."""
    from tests.factories import freestyle_event

    event = freestyle_event(director, players=20, slug="fs-tied")

    def scores(match):
        if match.group is not None and match.group.key == "B":
            return [6, 6]
        seats = [p.entrant.number for p in match.participants.order_by("seat")]
        return [10, 4] if seats[0] < seats[1] else [4, 10]

    play_round(event, director, scores=scores, complete=False)
    page = phone.new_page()
    page.goto(live_url("standings", event.slug))
    table = page.locator("table.standings", has=page.get_by_text("tiebreaker game to play"))
    expect(table.get_by_text("tiebreaker game to play")).to_have_count(5)
    expect(table.get_by_text("qualified")).to_have_count(0)
    shot(page, "tied-group-phone")
    # each of the five: alive for Round 2 with the reason, and alive for the event
    tied = table.locator(".cmark.cm-alive", has_text=re.compile("."))
    expect(tied).to_have_count(10)
    expect(table.locator('.cmark[title*="a tiebreaker game decides who goes on"]')).to_have_count(5)


def test_the_director_chooses_to_pair_the_next_round_again(
    director, desktop, phone, live_url, shot
):
    from tests.tournaments.test_corrections_redraw import _changing_match, _round_two_published
    from tournaments.models import Round

    event, r1, r2 = _round_two_published(director, "redraw-e2e")
    match, _ = _changing_match(r1)
    page = sign_in(desktop, live_url)
    page.goto(live_url("manage_round", event.slug, 1))
    row = page.locator(f"#match-{match.pk}")
    row.locator("input[name=g1-s0]").fill("24")
    row.locator("input[name=g1-s1]").fill("40")
    row.get_by_role("button", name="Preview the correction").click()
    preview = page.get_by_role("region", name="Preview of the correction")
    choice = preview.get_by_label(f"Also pair {r2.label} again from the corrected record")
    expect(choice).not_to_be_checked()
    choice.check()
    preview.get_by_label("Why (kept in the log)").fill("score sheet misread")
    shot(page, "redraw-choice")
    preview.get_by_role("button", name="Confirm the correction").click()
    expect(page.get_by_text(f"{r2.label} is paired again as a draft")).to_be_visible()
    shot(page, "redrawn")
    assert Round.objects.get(event=event, number=2).status == Round.Status.DRAFT
    assert AuditEntry.objects.filter(event=event, action="round.redrawn").count() == 1
    # a player who had the pairing open on a phone learns it was withdrawn
    player = phone.new_page()
    player.goto(live_url("round", event.slug, 2))
    expect(
        player.get_by_text(f"The pairing of {r2.label} was withdrawn by the director")
    ).to_be_visible()
    player.get_by_text("The withdrawn pairing").click()
    shot(player, "withdrawn-public-phone")
