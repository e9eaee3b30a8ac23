from django.urls import URLPattern, URLResolver, path

from games import views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    # The most requested first (each pattern before a page's is tried in vain): a game's
    # live poll, a move, a game's page.
    path("<int:pk>/live/", views.live, name="live"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/", views.detail, name="detail"),
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("bots/", views.bots, name="bots"),
    path("next/", views.next_decision, name="next"),
    path("finished/", views.finished, name="finished"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("decide/<str:token>/", views.decide, name="decide"),
    path("<int:pk>/join/", views.join, name="join"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/resign/", views.resign, name="resign"),
    path("<int:pk>/mute/", views.mute, name="mute"),
    path("<int:pk>/dice/", views.dice_words, name="dice_words"),
    path("<int:pk>/start/", views.start, name="start"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/bots/", views.add_bot, name="add_bot"),
    path("<int:pk>/homes/", views.assign_home, name="assign_home"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("<int:pk>/record.json", views.record, name="record"),
]
