"""Where Django finds a format's templates and static files: in its web package.

A format's package holds ``templates/`` and ``static/`` beside its modules
(tournaments/formats/<key>/templates/tournaments/formats/<key>/..., .../static/tournaments/
<key>.css), and a template or a static file keeps the name it had when every format's files
sat in tournaments/templates/ and tournaments/static/. The folders are read from the registry
when they are looked up, so a format registered later (a plugin, a test's toy) is found too,
and no list of the formats is kept in the settings (docs/architecture.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader

from tournaments.formats.registry import folders


class TemplateLoader(Loader):
    """The ``templates/`` folder of every format's web package (TEMPLATES, settings)."""

    def get_dirs(self) -> list[str | Path]:
        return list(folders("templates"))


class StaticFinder(FileSystemFinder):
    """The ``static/`` folder of every format's web package (STATICFILES_FINDERS)."""

    def __init__(self, app_names: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(app_names, *args, **kwargs)
        # STATICFILES_DIRS are FileSystemFinder's own; this finder looks in the formats'
        self.locations = [("", str(folder)) for folder in folders("static")]
        self.storages = {root: FileSystemStorage(location=root) for _, root in self.locations}

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []
