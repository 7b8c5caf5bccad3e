"""Reports (PDF and CSV), built by tasks: /e/<slug>/reports/..."""

urlpatterns: list = []
