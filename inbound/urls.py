"""The webhook URLs, ``/anymail/<provider>/…``: django-anymail's, each ``guarded``, with
Mailgun's inbound route taken by ``MailgunInbound`` (see ``inbound.webhooks``)."""

from __future__ import annotations

from anymail import urls as anymail_urls
from django.urls import URLPattern, re_path

from inbound.webhooks import MailgunInbound, guarded

app_name = "anymail"  # the names anymail's own URLs have, for reverse()

urlpatterns = [
    re_path(
        r"^mailgun/inbound(_mime)?/$",
        guarded(MailgunInbound.as_view()),
        name="mailgun_inbound_webhook",
    ),
    *(
        URLPattern(pattern.pattern, guarded(pattern.callback), pattern.default_args, pattern.name)
        for pattern in anymail_urls.urlpatterns
        if isinstance(pattern, URLPattern)
    ),
]
