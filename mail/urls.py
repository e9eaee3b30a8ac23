from django.urls import URLPattern, URLResolver, path

from mail import views

app_name = "mail"

urlpatterns: list[URLPattern | URLResolver] = [
    path("outbox/", views.outbox, name="outbox"),
    path("outbox/<int:mail_id>/", views.outbox_detail, name="outbox_detail"),
    path("outbox/<int:mail_id>/picture", views.outbox_picture, name="outbox_picture"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
