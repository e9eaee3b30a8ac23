"""Leagues and tournaments."""

from django.urls import URLPattern, URLResolver, path

from tournaments import views

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("<int:pk>/", views.tournament_by_id, name="by_id"),
    path("<int:pk>/standings.json", views.standings_json, name="standings_json"),
    path("leagues/<slug:slug>/", views.league, name="league"),
    path("leagues/<slug:slug>/join/", views.join, name="join"),
    path("leagues/<slug:slug>/leave/", views.leave, name="leave"),
    path("leagues/<slug:league_slug>/<slug:slug>/", views.tournament, name="tournament"),
    path("leagues/<slug:league_slug>/<slug:slug>/register/", views.register, name="register"),
    path("leagues/<slug:league_slug>/<slug:slug>/withdraw/", views.withdraw, name="withdraw"),
    path("leagues/<slug:league_slug>/<slug:slug>/check-in/", views.check_in, name="check_in"),
]
