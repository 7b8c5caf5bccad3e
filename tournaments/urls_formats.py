"""Each format's own screens (tournaments/formats/<key>.py ``urlpatterns``)."""

from tournaments.formats.registry import modules

urlpatterns = [pattern for module in modules() for pattern in getattr(module, "urlpatterns", [])]
