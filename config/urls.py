from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Arbiter administration"
admin.site.site_title = "Arbiter"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("tournaments.urls")),
]
