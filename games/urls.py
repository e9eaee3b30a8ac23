from django.urls import URLPattern, URLResolver

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = []
