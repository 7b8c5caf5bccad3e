from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    """No database, no template: what Django and gunicorn cost per request on this server."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare", bare),
    path("", include("config.urls")),
]
