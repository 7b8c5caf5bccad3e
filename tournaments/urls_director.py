"""The director's screens: /e/<slug>/manage/..."""

urlpatterns: list = []
