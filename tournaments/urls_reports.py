"""Reports (PDF and CSV), built by tasks: /e/<slug>/reports/..."""

from django.urls import path

from tournaments.views import rating_report, reports

urlpatterns = [
    path("e/<slug:slug>/reports/", reports.reports_index, name="reports_index"),
    path("e/<slug:slug>/reports/new", reports.reports_create, name="reports_create"),
    path(
        "e/<slug:slug>/reports/rating-officer/",
        rating_report.rating_report_view,
        name="reports_rating",
    ),
    path(
        "e/<slug:slug>/reports/standings.pdf",
        reports.reports_public_standings,
        name="reports_public_standings",
    ),
    path("e/<slug:slug>/reports/<int:pk>/", reports.reports_status, name="reports_status"),
    path(
        "e/<slug:slug>/reports/<int:pk>/download",
        reports.reports_download,
        name="reports_download",
    ),
]
