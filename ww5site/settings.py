"""Settings for the World War 5 site, read from the environment.

Every setting has a working local default (SQLite, Celery tasks run in-process, mail
printed to the console), so a fresh checkout runs with no configuration. With
DJANGO_DEBUG=0 the site refuses to start without DJANGO_SECRET_KEY and turns on the
HTTPS protections that `manage.py check --deploy` asks for.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-local-development-only"

# Empty is fine while DEBUG: Django then accepts localhost, 127.0.0.1 and [::1].
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "tournaments",
    "mail",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.TimeZoneMiddleware",
]

ROOT_URLCONF = "ww5site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "ww5site.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    ),
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts (django-allauth): sign up with a username and an email address that must
# be confirmed before signing in; password reset by email.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ProfileModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_USER_DISPLAY = "accounts.services.display_name"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[World War 5] "
LOGIN_REDIRECT_URL = "games:lobby"
LOGIN_URL = "account_login"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "World War 5 <ww5@localhost>")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Mail: everything the site sends, Django's own mail included (allauth's confirmations
# and password resets), is written to the outbox table in the caller's transaction and
# handed to MAIL_TRANSPORT by a task after commit. With EMAIL_HOST the transport is that
# SMTP server; without it (the local default) mail is printed to the console, and every
# mail is listed at /mail/outbox/ while debugging.
EMAIL_BACKEND = "mail.backends.OutboxBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# Seconds per SMTP operation: a hung server must not hold a mail for longer than the
# outbox sweeper waits before it takes the mail for lost (mail.services.CLAIM_EXPIRES).
EMAIL_TIMEOUT = 30
# A mail still "sending" this long after its worker claimed it lost that worker (it was
# killed): the outbox sweeper sends it again. Keep it far above EMAIL_TIMEOUT.
MAIL_CLAIM_EXPIRES_SECONDS = int(os.environ.get("MAIL_CLAIM_EXPIRES_SECONDS", "600"))
# A sender keeps its connection to the mail server open for its next mails: closed after
# this long unused (a NOOP checks it before each use), or after this many mails.
MAIL_CONNECTION_IDLE_SECONDS = int(os.environ.get("MAIL_CONNECTION_IDLE_SECONDS", "60"))
MAIL_CONNECTION_MAX_MAILS = int(os.environ.get("MAIL_CONNECTION_MAX_MAILS", "100"))
MAIL_TRANSPORT = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "mail.backends.ConsoleBackend"  # headers and text; the outbox page has the rest
)
# Absolute links in mails (unsubscribe) start with this.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")

# A shared cache (Redis) when CACHE_URL is set: sessions are then read from it and
# written through to the database ("cached_db"). Use a Redis database of its own, not
# the broker's: clearing the cache empties its whole database. Without it, the local
# default is an in-process cache and sessions live in the database.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "ww5site.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "ww5",
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Celery: Redis is the broker when REDIS_URL is set; without it, tasks run eagerly
# in-process so the site works with nothing else running.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
# A player is reminded of a pending decision when this share of its time is left
# (0 turns reminders off).
REMINDER_LEFT = float(os.environ.get("REMINDER_LEFT", "0.2"))
# How many days of absence a player may declare per calendar year.
ABSENCE_DAYS_PER_YEAR = int(os.environ.get("ABSENCE_DAYS_PER_YEAR", "21"))
# The local hour at which a digest player's daily digest is sent.
DIGEST_HOUR = int(os.environ.get("DIGEST_HOUR", "7"))

# Deadlines are indexed columns swept by this periodic task (celery beat), never tasks
# scheduled hours ahead.
# PERIODIC_JOBS_EVERY: how often, in seconds, each sweep runs.
PERIODIC_JOBS_EVERY = float(os.environ.get("PERIODIC_JOBS_EVERY", "60"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-reminders": {"task": "games.tasks.sweep_reminders", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-outbox": {"task": "mail.tasks.sweep_outbox", "schedule": PERIODIC_JOBS_EVERY},
    "send-digests": {"task": "games.tasks.send_digests", "schedule": PERIODIC_JOBS_EVERY},
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Start low and raise once HTTPS is known to work everywhere: browsers remember it.
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "3600"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
