from django.urls import URLPattern, URLResolver, path

from accounts import views

app_name = "accounts"

urlpatterns: list[URLPattern | URLResolver] = [
    path("profile/", views.profile, name="profile"),
    path("mail-works/", views.mail_works, name="mail_works"),
    path("time-zone/", views.browser_time_zone, name="browser_time_zone"),
    path("profile/absences/", views.declare_absence, name="declare_absence"),
    path(
        "profile/absences/<int:absence_id>/withdraw/",
        views.withdraw_absence,
        name="withdraw_absence",
    ),
]
