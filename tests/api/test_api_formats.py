"""Issue 30 step 1: "brackets and each format's own tables, the contention outlook, the
draws" over the API, with the pages' permissions: each answer holds what its public page
shows (compared with the page itself, format by format), a private event answers 404, a
hidden WPF result stays hidden, and each operation runs the same queries whatever the
event's size (none on a cached hit)."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from rules.formats.wpf_playoffs.replay import REVEAL_SETTING
from tests.factories import bulk_event, wpf_imported_event
from tests.tournaments.test_format_woc_web import SEMI_FINAL_SEED, qualified_event
from tournaments import simulation
from tournaments.models import Event, Match
from tournaments.services import rounds, standings
from tournaments.services.eventfile import import_event

pytestmark = pytest.mark.django_db


def whole_event(director, key: str, entrants: int, slug: str, *, cut: int | None = None) -> Event:
    """A simulated event of ``key`` imported as played (every round, or up to ``cut``)."""
    state = simulation.simulate(key, entrants, 7)
    if cut is not None:
        state = simulation.cut(state, cut)
    event = import_event(simulation.to_event_file(state, slug=slug, name=slug), by=director)
    standings.refresh(event.pk, Event.objects.get(pk=event.pk).results_version)
    event.refresh_from_db()
    return event


def page(client, name: str, *args) -> str:
    response = client.get(reverse(f"tournaments:{name}", args=args))
    assert response.status_code == 200, name
    return html.unescape(response.content.decode())


def api(client, path: str) -> dict:
    response = client.get(f"/api/v1/events/{path}")
    assert response.status_code == 200, (path, response.content[:300])
    return response.json()


def in_order(text: str, words: list[str]) -> bool:
    at = 0
    for word in words:
        at = text.find(word, at)
        if at < 0:
            return False
        at += len(word)
    return True


# -- each format: the answer is what the page shows ------------------------------------------


def assert_tables_are_the_standings_page(client, event: Event, keys: set[str]) -> None:
    shown = page(client, "standings", event.slug)
    tables = api(client, f"{event.slug}/standings/")["tables"]
    assert keys <= {t["key"] for t in tables}, [t["key"] for t in tables]
    for table in tables:
        assert table["title"] in shown
        assert in_order(shown, [table["title"], *(r["entrant"]["name"] for r in table["rows"])])


def test_gokodom_bracket_is_the_bracket_page(client, director):
    event = whole_event(director, "gokodom", 16, "goko-api")
    shown = page(client, "gokodom_bracket", event.slug)
    body = api(client, f"{event.slug}/gokodom/bracket/")
    assert body["started"] is True
    assert [c["label"] for c in body["columns"]] == ["Quarter-finals", "Semi-finals", "Final"]
    for column in body["columns"]:
        assert column["label"] in shown
        for box in column["boxes"]:
            assert not box["empty"] and box["code"] in shown
            names = [p["entrant"]["name"] for p in box["players"]]
            assert in_order(shown, [box["code"], *names]), box
            assert sum(p["winner"] for p in box["players"]) == 1
    champion = body["champion"]["name"]
    assert f"{champion} wins the season." in shown
    # the season's Swiss table is the standings page's
    assert_tables_are_the_standings_page(client, event, {"swiss"})


def test_freestyle_bracket_and_draws_are_their_pages(client, director):
    event = whole_event(director, "freestyle", 28, "fs-api")
    shown = page(client, "freestyle_bracket", event.slug)
    body = api(client, f"{event.slug}/freestyle/bracket/")
    assert [b["code"] for b in body["boxes"]] == ["SF1", "SF2", "F", "3P"]
    for box in body["boxes"]:
        assert box["played"] and box["winner"] in (0, 1)
        for player in box["players"]:
            assert player["entrant"]["name"] in shown
    assert [p["place"] for p in body["podium"]] == [1, 2, 3, 4]
    assert f"{body['champion']} wins the tournament." in shown
    # the groups of each round are the standings page's tables
    assert_tables_are_the_standings_page(client, event, {"round-1/group-B", "round-3/group-1"})

    drawn = page(client, "freestyle_draws", event.slug)
    draws = api(client, f"{event.slug}/draws/?per_page=200")
    assert draws["count"] == event.draws.count() > 5
    assert in_order(drawn, [d["title"] for d in draws["results"]])
    for draw in draws["results"]:
        assert draw["outcome"] in drawn and draw["key"] in drawn
        assert draw["method"] == "seeded" and draw["method_label"] in drawn
        for group in draw["groups"]:
            for slot in group["slots"]:
                assert slot["code"] in drawn and slot["name"] in drawn
    assert {d["section"] for d in draws["results"]} >= {"1", "2", "3"}


def test_bot_contest_pages_are_their_answers(client, director):
    event = whole_event(director, "bot_contest", 12, "bots-api")
    gauntlet = api(client, f"{event.slug}/bot_contest/gauntlet/")
    shown = page(client, "bot_contest_gauntlet", event.slug)
    assert gauntlet["seeded"] is True
    assert in_order(shown, [r["name"] for r in gauntlet["references"]])
    assert in_order(shown, [r["entrant"]["name"] + "<" for r in gauntlet["rows"]])
    assert [r["seed"] for r in gauntlet["rows"]] == list(range(1, len(gauntlet["rows"]) + 1))

    brackets = api(client, f"{event.slug}/bot_contest/brackets/")
    shown = page(client, "bot_contest_brackets", event.slug)
    assert brackets["winners"] and brackets["losers"] and brackets["finalists"]
    for side in ("winners", "losers"):
        for rnd in brackets[side]:
            for match in rnd["matches"]:
                names = [s["entrant"]["name"] for s in match["slots"] if s["entrant"]]
                assert names and in_order(shown, names)
    out = [e["entrant"]["number"] for e in brackets["eliminated"]]
    assert not set(out) & {e["number"] for e in brackets["finalists"]}

    final = api(client, f"{event.slug}/bot_contest/final/")
    shown = page(client, "bot_contest_final", event.slug)
    assert final["complete"] is True and final["round"] == brackets["final_round"]
    assert in_order(shown, [r["entrant"]["name"] for r in final["rows"]])
    assert [r["place"] for r in final["rows"]] == list(range(1, len(final["rows"]) + 1))
    for row in final["rows"]:
        assert sum(cell is None for cell in row["cells"]) == 1  # the entry itself

    boards = api(client, f"{event.slug}/bot_contest/boards/")["boards"]
    shown = page(client, "bot_contest_boards", event.slug)
    assert len(boards) == event.rounds.count()
    for board in boards:
        assert board["board"] in shown


def test_wpf_ladder_is_the_ladder_page(client, director):
    event = whole_event(director, "wpf_playoffs", 16, "wpf-api")
    shown = page(client, "wpf_playoffs_ladder", event.slug)
    body = api(client, f"{event.slug}/wpf_playoffs/ladder/")
    assert body["visible"] is True and body["final"] is True
    assert len(body["rows"]) == 16 and [r["rank"] for r in body["rows"]] == list(range(1, 17))
    assert in_order(shown, [r["name"] for r in body["rows"] if not r["virtual"]])
    for row in body["rows"]:
        assert row["reason"] in shown
        assert len(row["cells"]) == len(body["columns"])
    swapped = [
        m for r in body["rounds"] for s in r["sections"] for m in s["matches"] if m["swapped"]
    ]
    assert swapped and shown.count("ranks swapped") == len(swapped)


def test_woc_semi_final_notes_are_the_round_page(client, director):
    """III.1 and IV.9 as the round page says them: places, colours, who chooses game 3."""
    event = qualified_event(SEMI_FINAL_SEED)
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=director).round, by=director)
    match = Match.objects.filter(round=rnd, details__kind="semi_final").first()
    event.directors.add(director)
    client.force_login(director)
    url = reverse("tournaments:manage_result", args=[event.slug, match.pk])
    data = {
        "version": 0,
        **{"g1-s0": "40", "g1-s1": "24", "g1-first": "0"},
        **{"g2-s0": "30", "g2-s1": "34", "g2-first": "1"},
    }
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    client.logout()
    shown = page(client, "round", event.slug, rnd.number)
    body = api(client, f"{event.slug}/rounds/{rnd.number}/")
    semis = [m for m in body["matches"] if m["bracket"] == "semi_final"]
    assert len(semis) == 2
    for m in semis:
        assert m["bracket_title"] == "Semi-finals (III.2)" and m["bracket_title"] in shown
        for note in m["notes"]:
            assert note in shown
    played = next(m for m in semis if m["code"] == match.code)
    assert any(n.startswith("Game 3: ") for n in played["notes"]), played["notes"]


def test_woc_brightwell_breakdown_is_the_standings_page(client, director):
    """woc Appendix A: the Brightwell Quotient part by part, and each row's sentence."""
    event = qualified_event(3)
    standings.refresh(event.pk, Event.objects.get(pk=event.pk).results_version)
    body = api(client, f"{event.slug}/standings/")
    shown = page(client, "standings", event.slug)
    overall = body["tables"][0]
    breakdown = overall["breakdown"]
    assert breakdown["title"] == "Brightwell Quotient, part by part"
    assert breakdown["title"] in shown and breakdown["caption"] in shown
    assert len(breakdown["rows"]) == len(overall["rows"])
    for row in breakdown["rows"]:
        assert in_order(shown, [row["entrant"]["name"], *row["cells"][:1]])
    number = overall["rows"][0]["entrant"]["number"]
    explained = overall["rows"][0]["explanation"]
    assert explained.startswith("BQ ") and explained in page(client, "entrant", event.slug, number)


def test_the_outlook_is_what_the_standings_and_the_entrant_pages_say(client, director):
    event = whole_event(director, "round_robin", 8, "rr-outlook", cut=3)
    body = api(client, f"{event.slug}/outlook/?per_page=5")
    assert body["published"] is True and body["results_hidden"] is False
    assert body["method"] in ("exact", "bound") and body["count"] == 8
    assert [e["entrant"]["number"] for e in body["results"]] == [1, 2, 3, 4, 5]
    standings_page = page(client, "standings", event.slug)
    for entry in body["results"]:
        assert entry["win"]["status"] in ("clinched", "alive", "eliminated")
        own = page(client, "entrant", event.slug, entry["entrant"]["number"])
        assert entry["win"]["reason"] in own
        assert entry["table"] in standings_page
    second = api(client, f"{event.slug}/outlook/?per_page=5&page=2")
    assert [e["entrant"]["number"] for e in second["results"]] == [6, 7, 8]


# -- permissions and hidden results --------------------------------------------------------------

OPERATIONS = [
    "outlook/",
    "draws/",
    "gokodom/bracket/",
    "freestyle/bracket/",
    "bot_contest/gauntlet/",
    "bot_contest/brackets/",
    "bot_contest/final/",
    "bot_contest/boards/",
    "wpf_playoffs/ladder/",
]
NOT_FOUND = {"code": "not_found", "message": "Nothing here: no such public resource."}


@pytest.mark.parametrize("key", ["gokodom", "freestyle", "bot_contest", "wpf_playoffs"])
def test_a_private_event_answers_404_to_every_operation(client, director, key):
    event = whole_event(director, key, 16 if key != "bot_contest" else 8, f"priv-{key}", cut=2)
    mine = [op for op in OPERATIONS if "/" not in op.rstrip("/") or op.startswith(key)]
    assert len(mine) >= 3
    for op in mine:
        assert client.get(f"/api/v1/events/{event.slug}/{op}").status_code == 200, op
    # another format's page is missing, as the page is
    other = next(op for op in OPERATIONS if "/" in op.rstrip("/") and not op.startswith(key))
    assert client.get(f"/api/v1/events/{event.slug}/{other}").json() == NOT_FOUND
    event.public = False
    event.save()
    for op in OPERATIONS:
        response = client.get(f"/api/v1/events/{event.slug}/{op}")
        assert response.status_code == 404 and response.json() == NOT_FOUND, op
    client.force_login(director)
    for op in mine:
        assert client.get(f"/api/v1/events/{event.slug}/{op}").status_code == 200, op


def test_hidden_wpf_online_results_stay_hidden_in_the_outlook_ladder_and_draws(client, director):
    """issue 8: "Online results stay hidden from the public until the director reveals
    them": no verdict, no rank after an online round, no draw of a hidden round."""
    event = wpf_imported_event(director, 2, {"A1": 1})
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)
    hidden_round = event.rounds.get(number=1)
    event.draws.create(
        key="test/hidden",
        purpose="a hidden draw",
        value=[1],
        round=hidden_round,
        drawn_at=timezone.now(),
    )
    outlook = api(client, f"{event.slug}/outlook/")
    assert outlook["results_hidden"] is True and outlook["results"] == []
    assert outlook["method"] == "" and outlook["after_round"] is None
    ladder = api(client, f"{event.slug}/wpf_playoffs/ladder/")
    assert ladder["visible"] is False and ladder["rows"] == [] and ladder["rounds"] == []
    assert [s["seed"] for s in ladder["seeds"]][:3] == [1, 2, 3]
    draws = api(client, f"{event.slug}/draws/")
    assert "test/hidden" not in [d["key"] for d in draws["results"]]
    everything = "".join(
        client.get(f"/api/v1/events/{event.slug}/{op}").content.decode()
        for op in ("outlook/", "wpf_playoffs/ladder/", "draws/")
    )
    for secret in ("1:40", "22:00", 'swapped":true', "a hidden draw"):
        assert secret not in everything
    # revealed: the same answers now say it (the stored answers are not served again)
    event.settings = {**event.settings, REVEAL_SETTING: True}
    event.save()
    assert api(client, f"{event.slug}/wpf_playoffs/ladder/")["visible"] is True
    assert "test/hidden" in [d["key"] for d in api(client, f"{event.slug}/draws/")["results"]]


# -- queries: the same whatever the size, none on a hit ------------------------------------------


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.content[:300])
    return len(queries)


def _same_queries(client, events: list[Event], operation: str, budget: int) -> None:
    misses = []
    for event in events:
        url = f"/api/v1/events/{event.slug}/{operation}"
        misses.append(_queries(client, url))
        assert client.get(url)["X-Page-Cache"] == "hit", url
        assert _queries(client, url) == 0, url
    assert misses[0] == misses[1] and misses[0] <= budget, (operation, misses)


@pytest.mark.parametrize(
    ("key", "sizes", "operations"),
    [
        ("gokodom", (12, 32), ["gokodom/bracket/", "draws/"]),
        ("freestyle", (16, 32), ["freestyle/bracket/", "draws/"]),
        (
            "bot_contest",
            (8, 20),
            [
                "bot_contest/gauntlet/",
                "bot_contest/brackets/",
                "bot_contest/final/",
                "bot_contest/boards/",
            ],
        ),
        ("wpf_playoffs", (16, 12), ["wpf_playoffs/ladder/", "outlook/"]),
    ],
)
def test_each_format_operation_runs_the_same_queries_whatever_the_size(
    client, director, key, sizes, operations
):
    events = [whole_event(director, key, n, f"q-{key}-{n}") for n in sizes]
    for operation in operations:
        # the ladder is worked out by the engine from the event's state, as on its page
        _same_queries(client, events, operation, budget=14 if "ladder" in operation else 10)


def test_the_outlook_and_draws_run_the_same_queries_at_20_and_1000_entrants(client):
    events = [bulk_event("api-o-small", entrants=20), bulk_event("api-o-large", entrants=1_000)]
    for event in events:
        snapshot = event.snapshots.get()
        snapshot.contention = {"stage_key": "", "stage_name": "", "method": "bound", "notes": []}
        snapshot.save()
        win = {"code": "", "text": "alive", "status": "alive", "method": "bound"}
        snapshot.rows.update(contention={"win": win, "stage": None})
    for operation in ("outlook/?per_page=200", "draws/"):
        _same_queries(client, events, operation, budget=8)
    assert (
        api(client, "api-o-large/outlook/?per_page=200")["results"][0]["win"]["reason"] == "alive"
    )


def test_every_new_shape_is_documented_with_an_example(client):
    components = client.get("/api/v1/schema/").json()["components"]["schemas"]
    for name in (
        "Verdict",
        "OutlookEntry",
        "Draw",
        "GokodomBox",
        "FreestyleBox",
        "GauntletRow",
        "BracketMatch",
        "FinalRow",
        "Board",
        "LadderRow",
        "LadderMatch",
        "Breakdown",
    ):
        (example,) = components[name]["examples"]
        assert set(example) == set(components[name]["properties"]), name
