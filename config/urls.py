from django.contrib import admin
from django.urls import include, path
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

admin.site.site_header = "Arbiter administration"
admin.site.site_title = "Arbiter"

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switch: POST only (Django's view would answer any method with a redirect),
    # with the CSRF token, back to its ``next``.
    path("i18n/setlang/", require_POST(set_language), name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("", include("tournaments.urls")),
]
