"""The outbox in the admin: read-only; failed mails are sent again with an action. A
trimmed mail (its body emptied MAIL_KEEP_SENT_DAYS after it was sent) says so where its
text and HTML were."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import formats, timezone

from mail import services
from mail.models import OutgoingMail
from ww5site.durations import counted
from ww5site.readonly import ReadOnlyAdminMixin


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "to_address",
        "subject",
        "kind",
        "thread",
        "status",
        "attempts",
        "created_at",
        "sent_at",
        "next_attempt_at",
    )
    list_filter = ("status", "kind")
    search_fields = ("to_address", "subject", "message_id", "dedup_key", "thread")
    list_select_related = ("to_user",)
    date_hierarchy = "created_at"
    actions = ["requeue"]
    fields = (
        "to_address",
        "to_user",
        "from_address",
        "reply_to",
        "kind",
        "subject",
        "thread",
        "message_id",
        "dedup_key",
        "unsubscribe_url",
        "status",
        "attempts",
        "created_at",
        "next_attempt_at",
        "claimed_at",
        "sent_at",
        "last_error",
        "body_text",
        "body_html",
    )
    readonly_fields = (*fields, "trimmed")
    BODY = ("body_text", "body_html")

    def get_fields(self, request: HttpRequest, obj: OutgoingMail | None = None) -> Any:
        # A trimmed mail's empty text and HTML would read as a mail sent empty.
        if obj is not None and obj.trimmed_at is not None:
            return (*(name for name in self.fields if name not in self.BODY), "trimmed")
        return self.fields

    @admin.display(description="Text and HTML")
    def trimmed(self, mail: OutgoingMail) -> str:
        if mail.trimmed_at is None:
            return "Kept."
        when = formats.date_format(timezone.localtime(mail.trimmed_at), "DATETIME_FORMAT")
        return (
            f"Trimmed on {when}, {counted(mail.kept_days or 0, 'day')} after the mail was "
            "sent (MAIL_KEEP_SENT_DAYS): its text, HTML and picture are no longer kept, "
            "only the headers above."
        )

    @admin.action(
        description="Send the selected failed or waiting mails again now",
        permissions=["requeue"],
    )
    def requeue(self, request: HttpRequest, queryset: QuerySet[OutgoingMail]) -> None:
        count = services.requeue(queryset.values_list("pk", flat=True))
        skipped = queryset.count() - count
        message = f"{counted(count, 'mail')} queued to be sent again."
        if skipped:
            message += f" {skipped} left alone: only failed or waiting mails are re-queued."
        messages.success(request, message)

    def has_requeue_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("mail.change_outgoingmail")
