"""Players' public pages, ladders and leaderboards."""

from django.urls import URLPattern, URLResolver, path

from ratings import views

app_name = "ratings"

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<str:name>/ratings.json", views.player_ratings_json, name="player_json"),
    path(
        "ladders/<int:ladder_id>/leaderboard.json", views.leaderboard_json, name="leaderboard_json"
    ),
]
