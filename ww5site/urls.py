from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("mail/", include("mail.urls")),
    # The inbound webhook: /anymail/<provider>/inbound/ (django-anymail's, guarded by
    # inbound.webhooks).
    path("anymail/", include("inbound.urls")),
    path("", include("ratings.urls")),
    path("admin/", admin.site.urls),
]
