from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import TemplateView


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers and feed readers still ask for /favicon.ico: the site's icon is an SVG
    under /static/ (its address found when asked: in production it names the hashed file)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    # The games first: a game's live poll and a move are most of the site's requests, and
    # each pattern tried before theirs costs them (an include that does not match raises).
    path("games/", include("games.urls")),
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("favicon.ico", favicon),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("mail/", include("mail.urls")),
    # The inbound webhook: /anymail/<provider>/inbound/ (django-anymail's, guarded by
    # inbound.webhooks).
    path("anymail/", include("inbound.urls")),
    path("", include("ratings.urls")),
    path("admin/", admin.site.urls),
]
