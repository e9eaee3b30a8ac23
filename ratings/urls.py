"""Players' public pages, ladders and leaderboards."""

from django.urls import URLPattern, URLResolver, path

from ratings import views

app_name = "ratings"

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<str:name>/", views.player, name="player"),
    path("players/<str:name>/ratings.json", views.player_ratings_json, name="player_json"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("ladders/", views.index, name="index"),
    path("ladders/<int:ladder_id>/", views.ladder, name="ladder"),
    path(
        "ladders/<int:ladder_id>/leaderboard.json", views.leaderboard_json, name="leaderboard_json"
    ),
    path("ladders/<int:ladder_id>/seats/", views.seat_effect, name="seats"),
    path("ladders/<int:ladder_id>/join/", views.join, name="join"),
    path("ladders/<int:ladder_id>/pause/", views.pause, name="pause"),
    path("ladders/<int:ladder_id>/resume/", views.resume, name="resume"),
    path("ladders/<int:ladder_id>/leave/", views.leave, name="leave"),
]
