"""A whole event from a file, in two steps (the director's import page, issue 12).

``check`` reads the file, builds everything the import would save and validates it whole,
without writing: a bad file is refused with its line (WOF) or JSON path and the problem. For
a WOF rating file it also proposes the labels of the games after the Swiss (playoff,
semi-finals, third place, final) and checks the labels the director chose instead. The
event file is built as the command-line importers build it (``wof.from_wof`` with the labels,
``ftd.ftd_event_file``). ``save`` runs the same check, then ``eventfile.import_event`` on that
file, all or nothing. Nothing is written before ``save``.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as conf
from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from rules.contract import Problem
from rules.formats.woc import ENGINE, record
from rules.formats.woc.finals import KIND_LABEL
from rules.formats.woc.wof import binary
from tournaments.models import Event, ImportJob
from tournaments.services import audit, eventfile, events, ftd, ftd_shape, limits, queue, wof
from tournaments.services.errors import ServiceError
from tournaments.words import sentence

log = logging.getLogger(__name__)

KINDS = {
    "event": "Arbiter event file (JSON)",
    "wof": "WOF rating file (.ELO, as PAPP writes it)",
    "ftd": "FlipTheDisc JSON export",
}
OTHER = "other"
# Label choices offered for every WOF file, besides the codes the proposal itself uses.
STANDARD_LABELS = (
    ("playoff", "PO-4-5"),
    ("semi_final", "SF1"),
    ("semi_final", "SF2"),
    ("third_place", "3RD"),
    ("final", "F"),
    ("women_final", "WF"),
)
KIND_ORDER = ("playoff", "women_playoff", "semi_final", "third_place", "final", "women_final")


@dataclass(frozen=True)
class AddedGame:
    """One game after the Swiss in a WOF file, with its proposed and chosen label."""

    index: int
    line: int
    black: str
    white: str
    black_discs: int | None  # None: the file gives the result without the discs
    white_discs: int | None
    proposed: str  # a label value: "kind:CODE" or "other"
    chosen: str
    result: str = ""  # '<', '>' or '=' as the file gives it

    @property
    def score(self) -> str:
        if self.black_discs is None or self.white_discs is None:
            return {">": "Black won", "<": "White won", "=": "draw"}.get(self.result, "?")
        return f"{self.black_discs}-{self.white_discs}"


@dataclass
class Preview:
    kind: str
    detected: bool  # the kind was detected, not chosen
    slug: str
    name: str
    format: str
    entrants: int
    withdrawn: int
    rounds: int
    matches: int
    games: int
    byes: int
    entrant_rows: list[dict[str, Any]] = field(default_factory=list)
    added: list[AddedGame] = field(default_factory=list)
    label_choices: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""
    swiss_rounds: int | None = None  # WOF: the qualifying rounds, before the final stages
    problems: list[Problem] = field(default_factory=list)  # the chosen labels' problems
    file: dict[str, Any] | None = field(default=None, repr=False)  # the event file to import
    # WOF: what the file does not say, its list beside its games, and whether its games
    # cover fewer rounds or players than its list (the director must confirm to import it)
    notes: list[str] = field(default_factory=list)
    note_codes: list[str] = field(default_factory=list)
    differences: list[dict[str, Any]] = field(default_factory=list)
    difference_count: int = 0
    truncated: str = ""
    truncation: Problem | None = field(default=None, repr=False)
    # WOF: the lines whose games contradict themselves or the list, each with the choices
    # it offers and the director's; what keeps them from being resolved (issue 28, item 13)
    contradictions: list[dict[str, Any]] = field(default_factory=list)
    unresolved: list[Problem] = field(default_factory=list, repr=False)
    # FlipTheDisc: the published standings, by entrant number (score, mbq)
    published: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def kind_name(self) -> str:
        return KINDS[self.kind]

    @property
    def changed(self) -> list[int]:
        return [g.index for g in self.added if g.chosen != g.proposed]

    @property
    def more_entrants(self) -> int:
        """Entrants the preview does not list (a page stays small whatever the file)."""
        return self.entrants - len(self.entrant_rows)


def detect(text: str) -> str | None:
    """The kind of file, from its first characters and a few keys."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        if '"arbiter_event_file"' in text:
            return "event"
        if any(
            key in text
            for key in ('"export_info"', '"country_code"', '"games_columns"', '"players_list"')
        ):
            return "ftd"
        return "event"
    lines = head.splitlines()[:400]
    if any(line.startswith(("%_%", "%%", "%Round")) for line in lines):
        return "wof"
    return None


def default_slug(name: str, filename: str = "") -> str:
    """The web address from the event's name, else the file's name; the director is asked
    for one when neither gives any."""
    stem = filename.rsplit("/", 1)[-1].rsplit(".", 1)[0] if filename else ""
    # a slug from "WOC_2014" reads woc-2014, as the command-line import makes it
    slug = (slugify(name.replace("_", " ")) or slugify(stem.replace("_", " ")))[:80]
    if not slug:
        raise ServiceError(
            [
                Problem(
                    "import.slug",
                    "slug",
                    "The file does not name the event: give its web address and name.",
                )
            ]
        )
    return slug


def check(
    text: str,
    *,
    kind: str = "auto",
    slug: str = "",
    name: str = "",
    filename: str = "",
    labels: Sequence[str] | None = None,
    resolutions: Mapping[int, str] | None = None,
) -> Preview:
    """What the import would create, checked whole; raise ServiceError for a bad file. The
    problems of the chosen ``labels`` (WOF) are in ``Preview.problems``, those of the
    director's ``resolutions`` of contradicting lines in ``Preview.unresolved``. A file past
    the limits (services/limits.py) is refused before the heavy part of the check."""
    limits.check_bytes(text)
    if binary(text):  # an image or a zip given as .ELO: one sentence, no bytes echoed
        raise ServiceError([Problem("wof.binary", "file")])
    detected = kind not in KINDS
    if detected:
        found = detect(text)
        if found is None:
            raise ServiceError(
                [
                    Problem(
                        "import.kind",
                        "kind",
                        "Cannot tell what kind of file this is: choose its kind (Arbiter event "
                        "file, WOF rating file or FlipTheDisc export).",
                    )
                ]
            )
        kind = found
    if kind == "wof":
        return _check_wof(
            text,
            slug=slug,
            name=name,
            filename=filename,
            labels=labels,
            auto=detected,
            resolutions=resolutions or {},
        )
    data = limits.load_json(text)
    if kind == "ftd":
        data = ftd_shape.normalise(data)
        limits.check_counts(
            entrants=len(data["entrants"]),
            rounds=len(data["rounds"]),
            games=sum(len(r["games"]) for r in data["rounds"]),
        )
        name = name or str(data.get("event") or data.get("name") or "")
        published = _published(data)
        data = ftd.ftd_event_file(data, slug=slug or default_slug(name, filename), name=name)
        clean = eventfile.validate(data)
        preview = _preview(kind, detected, clean)
        preview.file = data
        preview.published = published
        return preview
    # eventfile.validate refuses a file past the count limits before reading it
    if name and isinstance(data, dict) and isinstance(data.get("event"), dict):
        data["event"]["name"] = name
    clean = eventfile.validate(data, slug=slug or None)
    preview = _preview(kind, detected, clean)
    preview.file = data
    return preview


def _published(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The export's published standings with entrant numbers (the importer numbers the
    entrants in the export's order)."""
    number = {e["id"]: i for i, e in enumerate(data["entrants"], start=1)}
    rows = (data.get("published_standings") or {}).get("rows") or []
    return [
        {"number": number[r["player_id"]], "score": r.get("score"), "mbq": r.get("mbq")}
        for r in rows
        if isinstance(r, Mapping) and r.get("player_id") in number
    ]


def _preview(kind: str, detected: bool, clean: dict[str, Any]) -> Preview:
    rounds = clean["rounds"]
    matches = [m for r in rounds for m in r["matches"]]
    return Preview(
        kind=kind,
        detected=detected,
        slug=clean["event"]["slug"],
        name=clean["event"]["name"],
        format=clean["event"]["format"],
        entrants=len(clean["entrants"]),
        withdrawn=sum(1 for e in clean["entrants"] if e["status"] == "withdrawn"),
        rounds=len(rounds),
        matches=sum(1 for m in matches if len(m["participants"]) > 1),
        games=sum(len(m["games"]) for m in matches if len(m["participants"]) > 1),
        byes=sum(1 for m in matches if len(m["participants"]) == 1),
        entrant_rows=[
            {k: e[k] for k in ("number", "name", "country", "rating", "external_id", "status")}
            for e in clean["entrants"][: limits.PREVIEW_ROWS]
        ],
    )


# -- WOF: the labels of the games after the Swiss --------------------------------------------


def label_value(label: record.Label) -> str:
    return OTHER if label.kind == OTHER else f"{label.kind}:{label.match}"


def label_text(value: str) -> str:
    if value == OTHER:
        return "Other game (not a final stage)"
    kind, _, code = value.partition(":")
    return f"{KIND_LABEL.get(kind, kind)} ({code})"


def _choices(proposed: Sequence[str]) -> list[tuple[str, str]]:
    values = {f"{k}:{c}" for k, c in STANDARD_LABELS} | {v for v in proposed if v != OTHER}

    def order(value: str) -> tuple[int, str]:
        kind = value.partition(":")[0]
        return (KIND_ORDER.index(kind) if kind in KIND_ORDER else 99, value)

    return [(v, label_text(v)) for v in sorted(values, key=order)] + [(OTHER, label_text(OTHER))]


def _labels(values: Sequence[str]) -> list[dict[str, Any]]:
    """Label values in file order -> labels for ``wof.import_wof``: games of one match are
    numbered in file order; each "other" game is a match of its own."""
    seen: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    for i, value in enumerate(values):
        if value == OTHER:
            out.append({"kind": OTHER, "match": f"X{i + 1}", "game": 1})
            continue
        kind, _, code = value.partition(":")
        seen[code] += 1
        out.append({"kind": kind, "match": code, "game": seen[code]})
    return out


def _label_problems(
    values: Sequence[str],
    added: Sequence[tuple[Any, ...]],
    choices: Sequence[tuple[str, str]],
    names: Mapping[str, str],
) -> list[Problem]:
    problems = []
    allowed = {v for v, _ in choices}
    matches: dict[str, list[int]] = {}
    for i, value in enumerate(values):
        if value not in allowed:
            problems.append(
                Problem(
                    "wof.labels.kind", f"labels[{i}]", f"Game {i + 1}: '{value}' is not a label."
                )
            )
        elif value != OTHER:
            matches.setdefault(value, []).append(i)
    for value, games in matches.items():
        if len({frozenset(added[i][:2]) for i in games}) > 1:
            who = "; ".join(
                f"game {i + 1}: {names[added[i][0]]} v {names[added[i][1]]}" for i in games
            )
            problems.append(
                Problem(
                    "wof.labels.pair",
                    f"labels[{games[0]}]",
                    f"{label_text(value)} holds games between different players ({who}); "
                    "every game of one match is between the same two players.",
                )
            )
    return problems


def _check_wof(
    text: str,
    *,
    slug: str,
    name: str,
    filename: str,
    labels: Sequence[str] | None,
    auto: bool,
    resolutions: Mapping[int, str],
) -> Preview:
    limits.check_lines(text)
    examined = wof.examine(text, resolutions)
    parsed = examined.parsed
    games = sum(len(r) for r in parsed.rounds) + len(parsed.added)
    limits.check_counts(
        entrants=len(parsed.players),
        rounds=len(parsed.rounds),
        matches=games,
        games=games,
        players="players",
    )
    name = name or parsed.header.get("Tournament", "")
    data, added = wof.from_wof(
        parsed, slug=slug or default_slug(name, filename), name=name, check=examined.check
    )
    swiss = len(data["rounds"])
    state = wof.state_of(data)
    proposal = record.propose(state, added, ENGINE)
    proposed = [label_value(lb) for lb in proposal.labels]
    choices = _choices(proposed)
    chosen = list(proposed if labels is None else labels)
    problems: list[Problem] = []
    if len(chosen) != len(added):
        problems.append(
            Problem("wof.labels", "labels", f"{len(added)} added games need {len(added)} labels.")
        )
        chosen = proposed
    names = {str(e["number"]): e["name"] for e in data["entrants"]}
    problems += _label_problems(chosen, added, choices, names)
    usable = chosen if not problems else proposed
    built = wof.labels_from(_labels(usable), len(added))
    wof.add_final_rounds(data, record.final_rounds(state, added, built))
    try:
        clean = eventfile.validate(data)
    except ServiceError as error:
        file_problems: list[Problem] = []
        later: list[Problem] = []
        for p in error.problems:
            (later if _round_index(p.field) >= swiss else file_problems).append(p)
        if file_problems:
            raise ServiceError(file_problems) from None
        problems += [_explain(p, data, usable) for p in later]
        clean = None
    if clean is None:  # the labels are refused: the Swiss part is still shown
        data["rounds"] = data["rounds"][:swiss]
        clean = eventfile.validate(data)
    preview = _preview("wof", auto, clean)
    preview.added = [
        AddedGame(
            i,
            parsed.added[i].line,
            f"{names[b]} ({parsed.added[i].black})",
            f"{names[w]} ({parsed.added[i].white})",
            bd,
            wd,
            proposed[i],
            chosen[i],
            parsed.added[i].result,
        )
        for i, (b, w, bd, wd, *_details) in enumerate(added)
    ]
    preview.swiss_rounds = swiss
    preview.label_choices = choices
    preview.note = proposal.note
    preview.problems = problems
    preview.file = data
    _examined(preview, examined)
    preview.contradictions = wof.contradiction_rows(parsed)
    preview.unresolved = wof.resolution_problems(parsed, resolutions)
    return preview


def _examined(preview: Preview, examined: wof.Examined) -> None:
    """What the reader and the list-against-games check found, for the preview."""
    preview.notes = [sentence(note) for note in examined.notes]
    preview.note_codes = [note.code for note in examined.notes]
    rows = examined.difference_rows()
    preview.difference_count = len(rows)
    preview.differences = rows[: limits.PREVIEW_ROWS]
    if examined.truncated is not None:
        preview.truncated = sentence(examined.truncated)
        preview.truncation = wof.truncation_problem(examined)


def _round_index(place: str) -> int:
    if place.startswith("rounds["):
        head = place[len("rounds[") :].split("]", 1)[0]
        if head.isdigit():
            return int(head)
    return -1


def _explain(problem: Problem, data: dict[str, Any], values: Sequence[str]) -> Problem:
    """A problem of a labelled match, told by its games' numbers in the list."""
    r = _round_index(problem.field)
    rest = problem.field.split("]", 1)[1] if "]" in problem.field else ""
    code = ""
    if rest.startswith(".matches["):
        m = rest[len(".matches[") :].split("]", 1)[0]
        if m.isdigit() and int(m) < len(data["rounds"][r]["matches"]):
            code = data["rounds"][r]["matches"][int(m)]["code"]
    text = (
        problem.text.split(": ", 1)[1] if problem.text.startswith(problem.field) else problem.text
    )
    labels = _labels(values)
    games = [str(i + 1) for i, lb in enumerate(labels) if lb["match"] == code]
    kind = next((lb["kind"] for lb in labels if lb["match"] == code), "")
    where = f"{KIND_LABEL.get(kind, kind)} {code}".strip()
    if games:
        where += f" (game{'s' if len(games) > 1 else ''} {', '.join(games)})"
    return Problem(
        "wof.labels.record",
        problem.field,
        f"{where}: {text} These labels make the record impossible; correct them.",
    )


# -- saving ------------------------------------------------------------------------------------


def refuse(preview: Preview, accept_truncated: bool) -> None:
    """The problems that stop an import: the labels', and a cut-short file not confirmed."""
    problems = list(preview.problems) + preview.unresolved
    # a file read without its unresolved games may look cut short: the choices come first
    if preview.truncation is not None and not accept_truncated and not preview.unresolved:
        problems.append(preview.truncation)
    if problems:
        raise ServiceError(problems)


Progress = Callable[[int], None]


def save(
    text: str,
    *,
    kind: str,
    by: Any,
    slug: str,
    name: str = "",
    filename: str = "",
    labels: Sequence[str] | None = None,
    progress: Progress | None = None,
    accept_truncated: bool = False,
    resolutions: Mapping[int, str] | None = None,
) -> Event:
    """Check again, then import; all or nothing. A WOF import also records the labels the
    director confirmed, and which differ from the proposal, in the audit log. A WOF file
    whose games cover less than its list says is imported only with ``accept_truncated``;
    one whose games contradict themselves, only with a choice for each such line."""
    preview = check(
        text,
        kind=kind,
        slug=slug,
        name=name,
        filename=filename,
        labels=labels,
        resolutions=resolutions,
    )
    refuse(preview, accept_truncated)
    if progress:
        progress(30)  # the check is about a third of the work
    try:
        return _save(preview, by, progress)
    except IntegrityError:  # the same slug saved a moment ago (a second click, a colleague)
        raise ServiceError([events.slug_problem(preview.slug)]) from None


def _save(preview: Preview, by: Any, progress: Progress | None = None) -> Event:
    # The event file ``check`` built is the one the importer of the kind would build (the
    # same steps: wof.from_wof + labels, ftd.ftd_event_file): importing it spares a second
    # proposal, which costs about a second for a WOC.
    assert preview.file is not None

    def writing(share: float) -> None:
        if progress:
            progress(30 + int(share * 69))

    with transaction.atomic():
        event = eventfile.import_event(preview.file, by=by, slug=preview.slug, progress=writing)
        if preview.added:
            audit.log(
                event,
                "event.labels_confirmed",
                actor=by,
                at=timezone.now(),
                subject=event.slug,
                before={"proposed": [g.proposed for g in preview.added]},
                after={
                    "labels": [g.chosen for g in preview.added],
                    "changed": [i + 1 for i in preview.changed],
                },
            )
    return event


# -- the save as a job, done by the worker -----------------------------------------------------


def start(
    text: str,
    *,
    kind: str,
    by: Any,
    slug: str,
    name: str = "",
    filename: str = "",
    labels: Sequence[str] | None = None,
    now: datetime | None = None,
    accept_truncated: bool = False,
    resolutions: Mapping[int, str] | None = None,
) -> ImportJob:
    """Check the confirmed file once more (a refusal is answered at once, beside the
    director's choices), then leave the save to the worker: a job with progress. The same
    director confirming the same import again gets the job already under way. The worker
    imports the very text checked here with the same choices (a job keeps both)."""
    preview = check(
        text,
        kind=kind,
        slug=slug,
        name=name,
        filename=filename,
        labels=labels,
        resolutions=resolutions,
    )
    refuse(preview, accept_truncated)
    with transaction.atomic():
        under_way = ImportJob.objects.filter(
            user=by,
            slug=preview.slug,
            status__in=[ImportJob.Status.QUEUED, ImportJob.Status.RUNNING],
        ).first()
        if under_way is not None:
            return under_way
        job = ImportJob.objects.create(
            user=by,
            kind=preview.kind,
            filename=filename[:255],
            slug=preview.slug,
            name=preview.name,
            labels=list(labels) if labels is not None and preview.kind == "wof" else None,
            resolutions={str(n): c for n, c in (resolutions or {}).items()} or None,
            text=text,
            created_at=now or timezone.now(),
        )
        transaction.on_commit(lambda: enqueue(job.pk))
    return job


def enqueue(job_id: int) -> None:
    try:
        queue.send("tournaments.tasks.run_import", job_id)
    except Exception:
        if conf.CELERY_TASK_ALWAYS_EAGER:
            raise
        log.warning("broker unavailable: import job %s waits for the sweep", job_id)


def _progress_key(job_id: int) -> str:
    return f"import-job:{job_id}:progress"


def progress_of(job: ImportJob) -> int:
    """Percent done: the worker writes it to the cache while its transaction is open (the
    job row changes only when the import commits or is refused)."""
    if job.status != ImportJob.Status.RUNNING:
        return job.progress
    try:
        return max(job.progress, int(cache.get(_progress_key(job.pk)) or 0))
    except Exception:  # a cache that is down only hides the progress
        return job.progress


def run_job(job_id: int, *, now: datetime | None = None) -> bool:
    """Import a confirmed file; safe to run twice and concurrently (the job row is locked
    for the whole import, and a finished job is left alone)."""
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING, progress=5
    )

    def report(percent: int) -> None:
        # progress is a courtesy: a cache that is down does not stop the import
        with contextlib.suppress(Exception):
            cache.set(_progress_key(job_id), percent, timeout=3600)

    with transaction.atomic():
        job = ImportJob.objects.select_for_update().select_related("user").filter(pk=job_id).first()
        if job is None or job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
            return False
        try:
            event = save(
                job.text,
                kind=job.kind,
                by=job.user,
                slug=job.slug,
                name=job.name,
                filename=job.filename,
                labels=job.labels,
                resolutions={int(n): str(c) for n, c in (job.resolutions or {}).items()},
                progress=report,
                # a job is created only once ``start`` has had the director's confirmation
                # of a cut-short file: the worker imports what was confirmed
                accept_truncated=True,
            )
        except ServiceError as error:
            _finish(job, ImportJob.Status.FAILED, now, problems=limits.bounded(error.problems))
            return False
        except (DatabaseError, ConnectionError):
            raise  # transient: the task retries
        except Exception:
            log.exception("import job %s failed", job_id)
            problem = Problem("import.failed", "file", "An unexpected error stopped the import.")
            _finish(job, ImportJob.Status.FAILED, now, problems=[problem])
            return False
        _finish(job, ImportJob.Status.DONE, now, event=event)
    return True


def _finish(
    job: ImportJob,
    status: str,
    now: datetime | None,
    *,
    problems: Sequence[Problem] = (),
    event: Event | None = None,
) -> None:
    job.status = status
    job.progress = 100 if event is not None else job.progress
    job.problems = [sentence(p) for p in problems]
    job.event = event
    job.text = ""  # the file is not kept once the job has ended
    job.finished_at = now or timezone.now()
    job.save(update_fields=["status", "progress", "problems", "event", "text", "finished_at"])


def sweep_stuck(*, older_than_seconds: int = 600, now: datetime | None = None) -> int:
    """Enqueue again the jobs still unfinished long after they were confirmed (a lost task,
    a worker killed mid-import: its transaction rolled back, the job is as it was)."""
    now = now or timezone.now()
    stuck = ImportJob.objects.filter(
        status__in=[ImportJob.Status.QUEUED, ImportJob.Status.RUNNING],
        created_at__lt=now - timedelta(seconds=older_than_seconds),
    ).values_list("pk", flat=True)
    for pk in stuck:
        enqueue(pk)
    return len(stuck)
