"""Helpers shared by engines: settings with defaults, common checks, and the default (none)
incremental standings path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.contract import EventState, Problem, Setting, Standings
from rules.words import message


class SettingsMixin:
    """Gives an engine ``validate_settings`` and ``resolved`` from its ``settings`` list, and
    the defaults of the incremental standings (``standings_work``/``standings_after``: no
    incremental path, the caller recomputes the whole standings)."""

    settings: tuple[Setting, ...]

    def standings(self, state: EventState) -> Standings:  # pragma: no cover - every engine
        raise NotImplementedError

    def standings_work(self, state: EventState) -> tuple[Standings, object | None]:
        """The whole computation, also returning the engine's reusable intermediate work
        (None when the format has no incremental path)."""
        return self.standings(state), None

    def standings_after(
        self, work: object, state: EventState, changed: frozenset[tuple[int, str]]
    ) -> tuple[Standings, object] | None:
        """Standings of ``state``, which differs from the state ``work`` was computed for
        only by the results of the matches in ``changed`` (each ``(round number, match
        code)``): exactly ``self.standings(state)``, with the new work; or None when the
        engine cannot (the caller then recomputes the whole). ``work`` is consumed: an
        engine may change it. Default: None."""
        return None

    def defaults(self) -> dict[str, Any]:
        return {s.key: s.default for s in self.settings}

    def resolved(self, state_or_settings: EventState | Mapping[str, Any]) -> dict[str, Any]:
        given = (
            state_or_settings.settings
            if isinstance(state_or_settings, EventState)
            else state_or_settings
        )
        values = self.defaults()
        values.update({k: v for k, v in given.items() if k in values})
        return values

    def validate_settings(self, settings: Mapping[str, Any]) -> list[Problem]:
        problems: list[Problem] = []
        known = {s.key: s for s in self.settings}
        for key, value in settings.items():
            setting = known.get(key)
            if setting is None:
                problems.append(Problem("setting.unknown", key, params={"key": key}))
                continue
            if setting.choices and value not in setting.choices:
                allowed = ", ".join(map(str, setting.choices))
                problems.append(
                    Problem(
                        "setting.choice",
                        key,
                        params={
                            "key": key,
                            "allowed": allowed,
                            "choices": list(setting.choices),
                            "value": value,
                        },
                    )
                )
            elif setting.default is not None and not _same_kind(setting.default, value):
                problems.append(
                    Problem(
                        "setting.type",
                        key,
                        params={"key": key, "kind": _kind(setting.default), "value": value},
                    )
                )
        return problems


def _same_kind(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int | float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, type(default))


def _kind(default: Any) -> dict[str, Any] | str:
    """What a setting takes, as a message (a type no check knows: its Python name)."""
    if isinstance(default, bool):
        return message("setting.kind.bool")
    if isinstance(default, int | float):
        return message("setting.kind.number")
    if isinstance(default, str):
        return message("setting.kind.text")
    if isinstance(default, list | tuple):
        return message("setting.kind.list")
    return type(default).__name__
