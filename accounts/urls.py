from django.urls import URLPattern, URLResolver, path
from django.views.generic import TemplateView

app_name = "accounts"

urlpatterns: list[URLPattern | URLResolver] = [
    path("profile/", TemplateView.as_view(template_name="home.html"), name="profile"),
]
