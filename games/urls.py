from django.urls import URLPattern, URLResolver, path
from django.views.generic import TemplateView

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", TemplateView.as_view(template_name="home.html"), name="lobby"),
    path("new/", TemplateView.as_view(template_name="home.html"), name="create"),
]
