"""The public standings of a large field, a page at a time (issue 33): the top first, page
links, "find my name" across every page, a signed-in player's own row above the table, and
the same number of queries whatever the size of the field."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import bulk_event
from tournaments import selectors
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = selectors.STANDINGS_PAGE_ROWS


def _url(slug, **query):
    url = reverse("tournaments:standings", args=[slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _count(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def _rows(html):
    """The entrant numbers of the overall table's rows, in order."""
    import re

    return [int(n) for n in re.findall(r'<tr id="overall-(\d+)"', html)]


def test_a_long_table_shows_its_top_first_and_links_every_page(client):
    bulk_event("long", entrants=250, rounds=3, groups=5)
    first = client.get(_url("long")).content.decode()
    assert _rows(first) == list(range(1, PAGE + 1))
    assert "Rows 1 to 100 of 250" in first
    assert f'rel="next" href="{_url("long", page=2)}"' in first
    assert f'href="{_url("long", page=3)}">Last page' in first
    assert 'aria-current="page">1</span>' in first
    # the group tables (50 rows each: short) are whole, on page 1
    assert 'id="table-group-a"' in first and first.count('id="group-a-') == 50
    second = client.get(_url("long", page=2)).content.decode()
    assert _rows(second) == list(range(PAGE + 1, 2 * PAGE + 1))
    assert f'rel="prev" href="{_url("long")}"' in second
    assert "Rows 101 to 200 of 250" in second
    assert 'id="table-group-a"' not in second
    last = client.get(_url("long", page=3)).content.decode()
    assert _rows(last) == list(range(2 * PAGE + 1, 251))
    assert "Rows 201 to 250 of 250" in last and 'rel="next"' not in last
    # the live refresh asks for the same page again
    assert f'hx-get="{_url("long", page=3)}"' in last


def test_a_page_the_standings_do_not_have_is_a_404(client):
    bulk_event("few", entrants=250, rounds=3)
    for page in ("4", "0", "x", "-1"):
        assert client.get(_url("few", page=page)).status_code == 404, page


def test_a_short_table_is_one_page_without_page_links(client):
    bulk_event("short", entrants=PAGE, rounds=3)
    page = client.get(_url("short")).content.decode()
    assert _rows(page) == list(range(1, PAGE + 1))
    assert 'class="pages"' not in page
    assert client.get(_url("short", page=2)).status_code == 404


def test_find_my_name_finds_a_row_on_any_page_and_links_to_it(client):
    bulk_event("find", entrants=250, rounds=3)
    found = client.get(_url("find", q="Entrant 0230")).content.decode()
    assert "1 match for “Entrant 0230”" in found
    assert f'href="{_url("find", page=3)}#overall-230">in the table' in found
    assert "Entrant 0229" not in found
    by_number = client.get(_url("find", q="1")).content.decode()
    # the number 1, and every name with a 1 in it: at most FOUND_ROWS of them
    assert f'href="{_url("find")}#overall-1"' in by_number
    assert f"(the first {selectors.FOUND_ROWS})" in by_number
    partial = client.get(_url("find", q="0230"), HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "Entrant 0230" in partial


def test_a_signed_in_player_sees_their_own_row_above_the_table(client, django_user_model):
    event = bulk_event("own", entrants=250, rounds=3)
    user = django_user_model.objects.create_user("player230", password="pw-for-the-test-1")
    Entrant.objects.filter(event=event, number=230).update(user=user)
    client.force_login(user)
    page = client.get(_url("own")).content.decode()
    assert "Your place" in page
    own = page[page.index("Your place") : page.index('id="table-overall"')]
    assert "Entrant 0230" in own and f"{_url('own', page=3)}#overall-230" in own
    assert _rows(page) == list(range(1, PAGE + 1))  # the table itself: its top
    assert page.count('id="found-table-overall"') == 1  # no id twice on the page


def test_every_page_and_a_search_run_the_same_queries_at_two_sizes(client):
    small = bulk_event("small-p", entrants=250, rounds=3, groups=2)
    big = bulk_event("big-p", entrants=3000, rounds=3, groups=10)
    for query in ({}, {"page": 2}, {"page": 3}, {"q": "Entrant 02"}, {"q": "17"}):
        counts = [_count(client, _url(e.slug, **query)) for e in (small, big)]
        assert counts[0] == counts[1], (query, counts)
        assert counts[0] <= 8, (query, counts)
    # the big event's page is a page, not the field: 100 rows of 3,000
    page = client.get(_url("big-p", page=30)).content.decode()
    assert _rows(page) == list(range(2901, 3001))
    assert "Rows 2,901 to 3,000 of 3,000" in page or "Rows 2901 to 3000 of 3000" in page
