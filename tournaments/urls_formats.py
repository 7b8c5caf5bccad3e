"""Each format's own screens (``SCREENS`` of tournaments/formats/<key>/ui.py).

The format modules name their views by dotted path and this module imports them: a format
module is read by services, and importing views from there would make an import cycle.
"""

from django.urls import path
from django.utils.module_loading import import_string

from tournaments.formats.registry import modules

urlpatterns = [
    path(route, import_string(view), name=name)
    for module in modules()
    for route, view, name in getattr(module, "SCREENS", ())
]
