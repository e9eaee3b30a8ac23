from django.urls import URLPattern, URLResolver, path
from django.views.generic import RedirectView

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", RedirectView.as_view(url="/"), name="lobby"),
]
