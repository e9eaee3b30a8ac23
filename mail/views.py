"""The development outbox and the unsubscribe link.

The outbox pages show what the site has sent (on the local default, where mail goes
to the console, it is the easiest place to find a confirmation link). They are a
development tool: they exist only while ``MAIL_OUTBOX_PAGES`` is on (unset, while
DEBUG is). Nobody reads other people's mail in production, staff included: the admin's
outbox, for those given its permission, is where an operator looks.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.core.paginator import Paginator
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from mail import parts, services
from mail.models import OutgoingMail

OUTBOX_PAGE = 50


class OutboxFilter(forms.Form):
    """Which mails the outbox lists: to an address (or part of one), about a game."""

    to = forms.CharField(
        required=False, max_length=320, strip=True, label="To (address or part of it)"
    )
    game = forms.IntegerField(required=False, min_value=1, label="Game number")

    def filter(self, mails: models.QuerySet[OutgoingMail]) -> models.QuerySet[OutgoingMail]:
        if self.cleaned_data["to"]:
            mails = mails.filter(to_address__icontains=self.cleaned_data["to"])
        if self.cleaned_data["game"]:
            # The games app threads a game's mails under "game-<number>".
            mails = mails.of_thread(f"game-{self.cleaned_data['game']}")
        return mails


def _check_outbox_visible(request: HttpRequest) -> None:
    # A 404, not a 403: in production the pages do not exist, for anyone.
    shown = settings.MAIL_OUTBOX_PAGES
    if not (settings.DEBUG if shown is None else shown):
        raise Http404("no such page")


def outbox(request: HttpRequest) -> HttpResponse:
    _check_outbox_visible(request)
    form = OutboxFilter(request.GET)
    if not form.is_valid():
        return render(
            request, "mail/outbox.html", {"form": form, "length": OUTBOX_PAGE}, status=400
        )
    mails = form.filter(OutgoingMail.objects.order_by("-id"))
    page = Paginator(mails, OUTBOX_PAGE).get_page(request.GET.get("page"))
    # The pages' links keep the filter.
    kept = urlencode({name: value for name, value in form.cleaned_data.items() if value})
    return render(
        request,
        "mail/outbox.html",
        {
            "form": form,
            "page": page,
            "mails": page.object_list,
            "kept": kept,
            "length": OUTBOX_PAGE,
        },
    )


def outbox_detail(request: HttpRequest, mail_id: int) -> HttpResponse:
    _check_outbox_visible(request)
    mail = get_object_or_404(OutgoingMail.objects.select_related("to_user"), pk=mail_id)
    html = mail.body_html
    picture_url = ""
    if mail.inline_kind:
        # The mail shows its picture by Content-ID; the page shows the same one by URL.
        picture_url = reverse("mail:outbox_picture", args=[mail.pk])
        cid = f"cid:{parts.content_id(mail.inline_kind)}"
        html = html.replace(cid, request.build_absolute_uri(picture_url))
    return render(
        request,
        "mail/outbox_detail.html",
        {
            "mail": mail,
            "html": html,
            "picture_url": picture_url,
            "thread_root": services.thread_root_id(mail.thread) if mail.thread else "",
        },
    )


def outbox_picture(request: HttpRequest, mail_id: int) -> HttpResponse:
    """The picture a mail carries inline, drawn as the sender draws it."""
    _check_outbox_visible(request)
    mail = get_object_or_404(OutgoingMail, pk=mail_id)
    part = services.inline_part_of(mail) if mail.inline_kind else None
    if part is None:
        raise Http404("this mail has no picture")
    return HttpResponse(part.content, content_type=f"image/{part.subtype}")


# No CSRF check: mail providers post the RFC 8058 one-click unsubscribe
# ("List-Unsubscribe=One-Click") with no cookie. The signed token is the credential,
# and all it can do is turn the player's mail down.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if request.method == "POST":
            user = services.unsubscribe(token)
        else:
            # A GET only asks: link scanners and previews must not unsubscribe anyone.
            user = services.user_for_unsubscribe(token)
    except services.BadUnsubscribeLink as error:
        return render(request, "mail/unsubscribe_invalid.html", {"error": error}, status=400)
    template = "mail/unsubscribed.html" if request.method == "POST" else "mail/unsubscribe.html"
    return render(request, template, {"player": user, "token": token})
