from django.urls import URLPattern, URLResolver, path

from accounts import views

app_name = "accounts"

urlpatterns: list[URLPattern | URLResolver] = [
    path("profile/", views.profile, name="profile"),
]
