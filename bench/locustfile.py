"""The load scenario (locust): players reloading pairings and standings, directors entering
results, on one large event. Started by `python -m bench.load` (bench/load.py), which
builds the event, serves it and writes the plan this file reads (LOAD_PLAN, a JSON file);
each director writes the saves the server acknowledged to LOAD_SAVES at the end, so the
runner can compare results entered with results stored.
"""

from __future__ import annotations

import itertools
import json
import os
import random

from locust import HttpUser, between, events, task

PLAN = json.loads(open(os.environ["LOAD_PLAN"]).read())  # noqa: SIM115
SAVED: dict[int, list] = {}  # match id -> [version, score, score] the server acknowledged
COUNT = [0]  # saves acknowledged
SCORES = [("1", "0"), ("0", "1"), ("0.5", "0.5")]
_directors = itertools.count()


class Player(HttpUser):
    """Someone at the venue with the event open on a phone: reloads the pairings and the
    standings, and the open page asks the version endpoint what changed."""

    fixed_count = PLAN["players"]
    wait_time = between(5, 15)

    @task(2)
    def pairings(self) -> None:
        self.client.get(f"/e/{PLAN['slug']}/rounds/{PLAN['round']}/", name="pairings page")

    @task(2)
    def standings(self) -> None:
        self.client.get(f"/e/{PLAN['slug']}/standings/", name="standings page")

    @task(3)
    def poll(self) -> None:
        self.client.get(f"/e/{PLAN['slug']}/version", name="version poll")


class Director(HttpUser):
    """A director at the results desk: enters the results of their own tables one after
    another (then corrects them, as directors do), each save an HTMX post of one row."""

    fixed_count = PLAN["directors"]
    wait_time = between(2, 5)

    def on_start(self) -> None:
        me = PLAN["desks"][next(_directors) % len(PLAN["desks"])]
        self.matches = itertools.cycle(me["matches"])
        self.versions = {m: v for m, v in me["matches"]}
        # signed in and the desk open before the run (bench/load.py): the session made
        # there, and a CSRF secret of our own as cookie and header, as Django accepts it
        self.client.cookies.set("sessionid", me["session"])
        self.client.cookies.set("csrftoken", me["csrf"])
        self.csrf = me["csrf"]

    @task
    def enter_result(self) -> None:
        match, _ = next(self.matches)
        version = self.versions[match]
        scores = random.choice(SCORES)
        with self.client.post(
            f"/e/{PLAN['slug']}/manage/matches/{match}/result",
            {"version": version, "g1-s0": scores[0], "g1-s1": scores[1]},
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf},
            name="save result",
            catch_response=True,
        ) as response:
            if response.status_code == 200 and 'data-saved="1"' in response.text:
                self.versions[match] = version + 1
                SAVED[match] = [version + 1, *scores]
                COUNT[0] += 1
                response.success()
            else:
                response.failure(f"HTTP {response.status_code}")


@events.test_stop.add_listener
def _write_saves(**_: object) -> None:
    with open(os.environ["LOAD_SAVES"], "w") as handle:
        json.dump({"last": SAVED, "saves": COUNT[0]}, handle)
