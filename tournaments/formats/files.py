"""Where Django finds a format's templates and static files: in its web package.

A format's package holds ``templates/`` and ``static/`` beside its modules
(tournaments/formats/<key>/templates/tournaments/formats/<key>/..., .../static/tournaments/
<key>.css), and a template or a static file keeps the name it had when every format's files
sat in tournaments/templates/ and tournaments/static/. The folders are read from the registry
when they are looked up, so a format registered later (a plugin, a test's toy) is found too,
and no list of the formats is kept in the settings (docs/architecture.md).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage, Storage
from django.template.loaders.filesystem import Loader

from tournaments.formats.registry import folders


class TemplateLoader(Loader):
    """The ``templates/`` folder of every format's web package (TEMPLATES, settings)."""

    def get_dirs(self) -> list[str | Path]:
        return list(folders("templates"))


class StaticFinder(FileSystemFinder):
    """The ``static/`` folder of every format's web package (STATICFILES_FINDERS).

    Django keeps one finder for the process: the folders are read again at each lookup."""

    def _read_registry(self) -> None:
        # STATICFILES_DIRS are FileSystemFinder's own; this finder looks in the formats'
        self.locations = [("", str(folder)) for folder in folders("static")]
        self.storages = {
            root: self.storages.get(root) or FileSystemStorage(location=root)
            for _, root in self.locations
        }

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        self._read_registry()
        return super().find(path, True) if find_all else super().find(path, False)

    def list(self, ignore_patterns: Iterable[str] | None) -> Iterable[tuple[str, Storage]]:
        self._read_registry()
        return super().list(ignore_patterns)

    def check(self, **kwargs: Any) -> builtins.list[CheckMessage]:
        return []
