from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from tournaments.views import mirror_endpoints

admin.site.site_header = "Arbiter administration"
admin.site.site_title = "Arbiter"

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switch: POST only (Django's view would answer any method with a redirect),
    # back to its ``next``. No CSRF token: the switch is on every page, and a token would
    # make each shared public page different for every visitor, and set a cookie, so it
    # could no longer be cached as one page (tournaments/views/pagecache.py); a forged
    # request can only change the visitor's language (tests/test_authorization.py).
    path("i18n/setlang/", csrf_exempt(require_POST(set_language)), name="set_language"),
    path("accounts/", include("accounts.urls")),
    # the public read-only API (tournaments/api/, docs/api.md)
    path("api/", include("tournaments.api.urls")),
    # venue mode: a venue's pushes and pulls to this public copy (docs/venue.md, "Protocol")
    path("mirror/v1/events/<slug:slug>/push", mirror_endpoints.push, name="mirror_push"),
    path("mirror/v1/events/<slug:slug>/pull", mirror_endpoints.pull, name="mirror_pull"),
    path("", include("tournaments.urls")),
]
