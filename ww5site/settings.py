"""Settings for the World War 5 site, read from the environment.

Every setting has a working local default (SQLite, Celery tasks run in-process, mail
printed to the console), so a fresh checkout runs with no configuration. With
DJANGO_DEBUG=0 the site refuses to start without DJANGO_SECRET_KEY, a mail server
(EMAIL_HOST) and its public address (SITE_URL), and turns on the HTTPS protections that
`manage.py check --deploy` asks for. A flag or a number the environment gives in a form
that is not clear stops the start too, naming the variable: a misspelled "off" must not
quietly read as something else.
"""

import math
import os
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


flag_values = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}


def env_bool(name: str, default: bool) -> bool:
    """A flag: 1/0, true/false, yes/no or on/off, in any case; anything else stops the
    start (ImproperlyConfigured), since a misspelled flag would otherwise read as off."""
    value = os.environ.get(name)
    if value is None:
        return default
    flag = flag_values.get(value.strip().lower())
    if flag is None:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a flag: set it to 1 or 0 "
            "(true/false, yes/no and on/off are understood too)."
        )
    return flag


def env_int(name: str, default: int) -> int:
    """A whole number; anything else stops the start, naming the variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_float(name: str, default: float) -> float:
    """A number (decimals allowed); anything else, infinity and NaN included, stops the
    start, naming the variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = float(value.strip())
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.")
    return number


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
    "axes",
    "accounts",
    "games",
    "ww5",
    "risiko",
    "tournaments",
    "ratings",
    "mail",
    "inbound",
    "anymail",
    "django_htmx",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from STATIC_ROOT (collectstatic) before any session or database work.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ww5site.middleware.FormCharsetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.TimeZoneMiddleware",
    # One sign-in checked at a time per account and client (accounts.sign_in_checks).
    "accounts.sign_in_checks.SignInChecksMiddleware",
    # Last, as django-axes asks: it turns a sign-in refused by the limit into its page.
    "axes.middleware.AxesMiddleware",
]

# The messages a page shows once: a signed cookie, else the session (Django's fallback
# storage), the cookie not compressed: the site's messages are short (ww5site.messages).
MESSAGE_STORAGE = "ww5site.messages.MessageStorage"

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
                "accounts.context_processors.mail_notice",
            ],
            "builtins": ["ww5site.sitename"],
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
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, reading timestamps with psycopg's compiled loader.
    DATABASES["default"]["ENGINE"] = "ww5site.postgresql"

# DATABASE_POOLER=pgbouncer: DATABASE_URL leads to PostgreSQL through PgBouncer in
# transaction pooling mode (or a pooler that works alike), which hands each transaction,
# and each statement outside one, to whichever server connection is free. Nothing may
# then outlive a transaction on its connection: the site keeps no session state (its
# advisory locks are transaction-scoped, it sets nothing but the time zone, which
# PgBouncer keeps per client, and prepares no statements: Django's psycopg default), and
# with this setting the ORM's .iterator() reads its rows with a plain query instead of a
# server-side cursor, which lives on one server connection across the fetches.
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "").strip().lower()
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(
        f"DATABASE_POOLER={os.environ['DATABASE_POOLER']!r} is not a pooler the site knows: "
        "set it to pgbouncer (for PgBouncer in transaction mode), or leave it unset."
    )
if DATABASE_POOLER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a threaded web server (and in-process jobs) from one
    # file, and SQLite lets one connection write at a time. A deferred transaction that
    # read and then wants to write cannot wait for another writer: it fails at once with
    # "database is locked". IMMEDIATE transactions take the write lock when they begin,
    # so simultaneous moves queue for it, up to the busy timeout (seconds); WAL lets
    # readers go on beside the writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts (django-allauth): sign up with a username and an email address that must
# be confirmed before signing in; password reset by email.
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out sign-in before any password is checked.
    "accounts.backends.SignInLimitBackend",
    # Checks the password, by username or address, with one hash; a wrong one ends the
    # sign-in there.
    "accounts.backends.ProfileModelBackend",
    # Never reached by a sign-in any more; listed so the sessions it signed in stay valid.
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_USER_DISPLAY = "accounts.services.display_name"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# DICE_SEED_KEYS: the keys (Fernet, comma-separated; the first encrypts, every one
# decrypts, for a rotation) that encrypt each game's dice seed at rest. Unset: one key
# derived from SECRET_KEY (games.services.seeds), so a changed secret key leaves the
# seeds of running games unreadable: set these in production.
DICE_SEED_KEYS = [k.strip() for k in os.environ.get("DICE_SEED_KEYS", "").split(",") if k.strip()]

# GAME_KINDS: the games the site runs besides World War 5, which it always runs, by their
# keys, comma-separated ("risiko", the default, runs RisiKo; empty: World War 5 alone).
GAME_KINDS = [
    key for key in os.environ.get("GAME_KINDS", "risiko").replace(" ", "").split(",") if key
]
# SITE_NAME: the site's name, which its pages and mails show and sign with (the games it
# runs name themselves: each kind has its name).
SITE_NAME = os.environ.get("SITE_NAME", "World War 5 by email")
# MAIL_SUBJECT_PREFIX: what begins every mail's subject, the site's own and Django's.
MAIL_SUBJECT_PREFIX = os.environ.get("MAIL_SUBJECT_PREFIX", "[World War 5] ")
# MAIL_GAME_SUBJECT_PREFIX: what begins the subject of a mail about a game or an event,
# with {game} the name of the game it plays ("[World War 5] ", "[RisiKo] ").
MAIL_GAME_SUBJECT_PREFIX = os.environ.get("MAIL_GAME_SUBJECT_PREFIX", "[{game}] ")
ACCOUNT_EMAIL_SUBJECT_PREFIX = MAIL_SUBJECT_PREFIX
LOGIN_REDIRECT_URL = "games:lobby"
LOGIN_URL = "account_login"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "World War 5 <ww5@localhost>")
# Password reset: no mail at all to an address that has no account (the page says the
# same either way, so it tells nobody which addresses have one), and each address gets
# at most PASSWORD_RESET_PER_ADDRESS reset mails an hour, each client may ask at most
# PASSWORD_RESET_PER_CLIENT times an hour: the form cannot be used to flood a mailbox.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
# Moves by email reply (the inbound app). A game's mails reply to
# REPLY_LOCAL_PART+<token>@REPLY_DOMAIN; the mail server delivers that domain (or those
# addresses) to `manage.py receive_mail`, `manage.py mail_listener` or the webhook.
REPLY_DOMAIN = os.environ.get(
    "REPLY_DOMAIN", DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "localhost"
)
REPLY_LOCAL_PART = os.environ.get("REPLY_LOCAL_PART", "play")
# A reply token stops working this many days after its mail, whatever its deadline.
REPLY_TOKEN_DAYS = env_int("REPLY_TOKEN_DAYS", 60)
# Messages larger than this are refused unread (bytes, headers and attachments included).
INBOUND_MAX_BYTES = env_int("INBOUND_MAX_BYTES", 5_000_000)
# And messages with more MIME parts than this, or multiparts nested deeper, counted from
# the bytes before the message is parsed (mail clients write a few parts, 3 or 4 deep).
INBOUND_MAX_PARTS = env_int("INBOUND_MAX_PARTS", 100)
INBOUND_MAX_DEPTH = env_int("INBOUND_MAX_DEPTH", 10)
# Messages one player may send in an hour (with their token, from their address), besides
# their moves, before the rest go unread (the first of them answered once, saying so); a
# move for a decision that waits for them is always read; mail forged in their name
# does not count.
INBOUND_PER_SENDER_PER_HOUR = env_int("INBOUND_PER_SENDER_PER_HOUR", 30)
# How long the audit rows of received messages are kept.
INBOUND_KEEP_DAYS = env_int("INBOUND_KEEP_DAYS", 90)
# A provider's webhook signature (Mailgun's) is accepted this many seconds either side of
# the site's clock, and only once.
INBOUND_WEBHOOK_MAX_AGE_SECONDS = env_int("INBOUND_WEBHOOK_MAX_AGE_SECONDS", 900)
# The inbound webhook's HTTP basic credentials ("user:password"), as django-anymail reads
# them; without them the webhook refuses every post.
# Each provider's own inbound settings (a signing key) come as ANYMAIL_<NAME> variables.
ANYMAIL = {
    name.removeprefix("ANYMAIL_"): value
    for name, value in os.environ.items()
    if name.startswith("ANYMAIL_") and value
}

PASSWORD_RESET_PER_ADDRESS = env_int("PASSWORD_RESET_PER_ADDRESS", 3)
PASSWORD_RESET_PER_CLIENT = env_int("PASSWORD_RESET_PER_CLIENT", 10)
ACCOUNT_RATE_LIMITS = {
    # Failed sign-ins are limited by django-axes below, on the site and in the admin
    # alike; allauth's own count would be a second, different limit on the site only.
    "login_failed": False,
    "reset_password": f"{PASSWORD_RESET_PER_CLIENT}/h/ip,{PASSWORD_RESET_PER_ADDRESS}/h/key",
}

# Sign-in limit (django-axes), for every sign-in form: after SIGN_IN_FAILURE_LIMIT wrong
# passwords in a row, signing in is refused with a 429 page until SIGN_IN_LOCKOUT_MINUTES
# have passed without another try. Each refused try starts the wait again, so the page
# can say when it ends. Failures are counted in the database, shared by every process.
AXES_FAILURE_LIMIT = env_int("SIGN_IN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_float("SIGN_IN_LOCKOUT_MINUTES", 15))
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = True
# Counted per account and client together: a stranger's wrong passwords lock the account
# for the stranger only, never for its owner signing in from elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.signin.attempted_account"
AXES_LOCKOUT_CALLABLE = "accounts.signin.locked_out"
AXES_CLIENT_IP_CALLABLE = "accounts.clients.client_address"
# Only failures are kept: a row for every successful sign-in would grow without end.
AXES_DISABLE_ACCESS_LOG = True
# A password check takes a web worker for a good part of a second. While a client's
# sign-in to an account is checked, its next try at that account is refused at once
# (429), so the limit above has counted every failure before it lets a hash start; and
# a client has at most this many sign-ins checked at once, whatever the accounts, and
# the whole site at most SIGN_IN_CHECKS_AT_ONCE, whatever the clients (keep it below the
# web server's worker count, so that pages are served during a burst of sign-ins). The
# tries past either are refused at once with a 429 page saying to try again in a moment.
SIGN_IN_CHECKS_PER_CLIENT = env_int("SIGN_IN_CHECKS_PER_CLIENT", 2)
SIGN_IN_CHECKS_AT_ONCE = env_int("SIGN_IN_CHECKS_AT_ONCE", 2)
for name in ("SIGN_IN_CHECKS_PER_CLIENT", "SIGN_IN_CHECKS_AT_ONCE"):
    if globals()[name] < 1:
        raise ImproperlyConfigured(f"{name} must be 1 or more.")

# The client's address, for the sign-in limit and allauth's rate limits. Behind reverse
# proxies REMOTE_ADDR is the nearest proxy, shared by every client: TRUSTED_PROXY_COUNT
# says how many proxies stand in front, each adding the address it heard from to the
# CLIENT_IP_HEADER; the client is that many entries from the header's right. 0 (no
# proxy): the header is ignored, since a client can write anything in it.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "X-Forwarded-For")

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

# Served by WhiteNoise (the middleware above), in production from STATIC_ROOT as
# `collectstatic` leaves it: compressed copies, and names carrying a hash of the
# content, so browsers may keep them for ever. While debugging, straight from static/.
# A form refused for its missing or stale CSRF token gets the site's own 403 page.
CSRF_FAILURE_VIEW = "accounts.views.csrf_failure"

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Decided by DJANGO_DEBUG, as the storage is (WhiteNoise would look at DEBUG, which the
# test runner turns off, when the test settings have no STATIC_ROOT to serve).
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG

# Mail: everything the site sends, Django's own mail included (allauth's confirmations
# and password resets), is written to the outbox table in the caller's transaction and
# handed to MAIL_TRANSPORT by a task after commit. With EMAIL_HOST the transport is that
# SMTP server; without it (the local default) mail is printed to the console, and every
# mail is listed at /mail/outbox/ while debugging.
EMAIL_BACKEND = "mail.backends.OutboxBackend"
# The /mail/outbox/ pages show every mail to whoever asks (password resets included): a
# development tool, on while DEBUG is (unset: None) and off in production, where no one,
# staff included, reads others' mail there (the admin's outbox needs its own permission).
MAIL_OUTBOX_PAGES = (
    env_bool("MAIL_OUTBOX_PAGES", False) if os.environ.get("MAIL_OUTBOX_PAGES") else None
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# Seconds per SMTP operation: a hung server must not hold a mail for longer than the
# outbox sweeper waits before it takes the mail for lost (mail.services.CLAIM_EXPIRES).
EMAIL_TIMEOUT = 30
# A mail still "sending" this long after its worker claimed it lost that worker (it was
# killed): the outbox sweeper sends it again. Keep it far above EMAIL_TIMEOUT.
MAIL_CLAIM_EXPIRES_SECONDS = env_int("MAIL_CLAIM_EXPIRES_SECONDS", 600)
# A mail still "queued" this long after it was due lost its send task (a worker killed
# with the task taken but not started, a broker down at commit): the outbox sweeper
# sends it. The broker itself would hand a killed worker's task on only after its
# visibility timeout, an hour. Short: a live queue hands its tasks out in moments, and
# the send's claim makes a task that turns up after all harmless.
MAIL_SEND_LOST_AFTER_SECONDS = env_int("MAIL_SEND_LOST_AFTER_SECONDS", 90)
# A sender keeps its connection to the mail server open for its next mails: closed after
# this long unused (a NOOP checks it before each use), or after this many mails.
MAIL_CONNECTION_IDLE_SECONDS = env_int("MAIL_CONNECTION_IDLE_SECONDS", 60)
MAIL_CONNECTION_MAX_MAILS = env_int("MAIL_CONNECTION_MAX_MAILS", 100)
# The outbox keeps a sent mail whole this many days; then the trim_outbox job empties its
# text, HTML and picture, keeping the row: its headers, status and keys (a dedup key
# still stops a second mail for the same decision). Failed mails are kept whole.
MAIL_KEEP_SENT_DAYS = env_int("MAIL_KEEP_SENT_DAYS", 30)
if MAIL_KEEP_SENT_DAYS < 1:
    raise ImproperlyConfigured("MAIL_KEEP_SENT_DAYS must be at least 1.")
# ...and deletes the trimmed row this many days after the mail was sent, so that the
# outbox stops growing (0: rows are kept for ever). An audit row of received mail still
# there loses its pointer to the deleted answer, and the mail's dedup key is free again.
MAIL_DELETE_SENT_DAYS = env_int("MAIL_DELETE_SENT_DAYS", 365)
if MAIL_DELETE_SENT_DAYS and MAIL_DELETE_SENT_DAYS <= MAIL_KEEP_SENT_DAYS:
    raise ImproperlyConfigured(
        "MAIL_DELETE_SENT_DAYS must be 0 (never delete) or more than MAIL_KEEP_SENT_DAYS."
    )
MAIL_TRANSPORT = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "mail.backends.ConsoleBackend"  # headers and text; the outbox page has the rest
)
# Errors reach standard error (gunicorn's and Celery's logs) with their tracebacks, and
# with DJANGO_ADMINS ("Name <address>, ...") the errors Django logs, a 500 above all,
# reach those addresses by mail too. Straight through MAIL_TRANSPORT, not the outbox:
# the outbox is a database table, and a failing database is among the errors to report.
ADMINS = [
    (name, address)
    for name, address in getaddresses([os.environ.get("DJANGO_ADMINS", "")])
    if address
]
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_SUBJECT_PREFIX = MAIL_SUBJECT_PREFIX
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d]: %(message)s"}
    },
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
        "mail_admins": {
            "level": "ERROR",
            "class": "django.utils.log.AdminEmailHandler",
            "filters": ["require_debug_false"],
            "email_backend": MAIL_TRANSPORT,
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["mail_admins"], "level": "INFO"},
        # Requests naming another host come from scanners: logged, mailed to no one.
        "django.security.DisallowedHost": {"handlers": ["stderr"], "propagate": False},
    },
}

# Absolute links in mails (decisions, unsubscribe) start with this. The localhost default
# serves only while debugging: in production mailed links to it would lead nowhere.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
if not SITE_URL and DEBUG:
    SITE_URL = "http://localhost:8000"
site = urlsplit(SITE_URL)
if SITE_URL and not (site.scheme in ("http", "https") and site.netloc):
    raise ImproperlyConfigured(
        f"SITE_URL={os.environ['SITE_URL']!r} is not the site's address: give it whole, with "
        "https:// (or http://) and the host name, e.g. https://ww5.example.org."
    )

# Production must reach its players: without a mail server every mail would be printed
# to the console, and without its address every mailed link would lead to localhost.
# The site would seem to work while no one heard from it, so it refuses to start.
# (Lower-case names in this module are working values: Django takes only upper-case
# ones as settings.)
production_needs = {
    "EMAIL_HOST": (
        EMAIL_HOST,
        "without it mail is printed to the console and never sent. Set it to the SMTP "
        "server that relays the site's mail (with EMAIL_PORT, EMAIL_HOST_USER and "
        "EMAIL_HOST_PASSWORD as that server needs).",
    ),
    "SITE_URL": (
        SITE_URL,
        "the links in mails would point to http://localhost:8000. Set it to the site's "
        "public address, e.g. SITE_URL=https://ww5.example.org.",
    ),
}
if not DEBUG:
    missing = [
        f"{name} must be set when DJANGO_DEBUG is off: {why}"
        for name, (value, why) in production_needs.items()
        if not value
    ]
    if missing:
        raise ImproperlyConfigured("\n".join(missing))

# A shared cache (Redis) when CACHE_URL is set: sessions are then read from it and
# written through to the database (Django's "cached_db", which here falls back to the
# database while the cache fails). Use a Redis database of its own, not the broker's:
# clearing the cache empties its whole database. Without it, the local default is an
# in-process cache and sessions live in the database.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "ww5site.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "ww5",
        }
    }
    SESSION_ENGINE = "ww5site.sessions"

# Celery: Redis is the broker when REDIS_URL is set; without it, tasks run eagerly
# in-process so the site works with nothing else running.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A worker whose broker is down (at start or later: a Redis restart, an outage) keeps
# trying to reach it, every 2 s at first and at most every 30 s, for as long as it takes:
# with Celery's default limit of 100 tries it would exit after some 45 minutes, leaving
# the bots, the mail and the sweeps stopped once the broker came back.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A worker reserves as many tasks as it runs at once (its concurrency; a send_mail task
# is acknowledged only when done), not four times as many: the tasks a killed worker
# held wait for the outbox sweep (MAIL_SEND_LOST_AFTER_SECONDS), and a busy worker
# leaves the queue to the idle ones.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# No task may hold a worker for ever (a hung connection, a runaway loop): at the soft
# limit SoftTimeLimitExceeded is raised in the task, rolling back the transaction it is
# in (a mail being sent records a failed attempt, retried later), and a task still
# running at the hard limit has its worker process killed and replaced. Each task's work
# is safe to redo: the sweeps take up what a stopped task left (bots after
# BOT_STALLED_SECONDS, mail after MAIL_SEND_LOST_AFTER_SECONDS or, for a mail that was
# sending, MAIL_CLAIM_EXPIRES_SECONDS, which is why that stays above the hard limit).
# The longest task, play_bots, plays at most 200 bot decisions before it hands on to a
# fresh task; 200 take 2-3 s against PostgreSQL, so 300 s leaves a hundredfold margin.
CELERY_TASK_SOFT_TIME_LIMIT = env_float("CELERY_TASK_SOFT_TIME_LIMIT", 300)
CELERY_TASK_TIME_LIMIT = env_float("CELERY_TASK_TIME_LIMIT", 360)
if not 0 < CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"CELERY_TASK_SOFT_TIME_LIMIT ({CELERY_TASK_SOFT_TIME_LIMIT:g} s) must be above 0 "
        f"and below CELERY_TASK_TIME_LIMIT ({CELERY_TASK_TIME_LIMIT:g} s), so that a task "
        "is asked to stop before it is killed."
    )
CELERY_TIMEZONE = TIME_ZONE
# A broker that is down must not hold a request for long: a job handed over after a
# commit is given up after these short retries (the periodic sweeps pick its work up).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# A player is reminded of a pending decision when this share of its time is left
# (0 turns reminders off).
REMINDER_LEFT = env_float("REMINDER_LEFT", 0.2)
# How many days of absence a player may declare per calendar year.
ABSENCE_DAYS_PER_YEAR = env_int("ABSENCE_DAYS_PER_YEAR", 21)
# One account cannot flood the lobby: how many of its games may wait for players at
# once, and how many it may create in an hour (staff are not limited).
OPEN_GAMES_PER_PLAYER = env_int("OPEN_GAMES_PER_PLAYER", 5)
GAMES_CREATED_PER_HOUR = env_int("GAMES_CREATED_PER_HOUR", 10)
# The local hour at which a digest player's daily digest is sent.
DIGEST_HOUR = env_int("DIGEST_HOUR", 7)

# Deadlines are indexed columns swept by this periodic task (celery beat), never tasks
# scheduled hours ahead.
# PERIODIC_JOBS_EVERY: how often, in seconds, each sweep runs.
PERIODIC_JOBS_EVERY = env_float("PERIODIC_JOBS_EVERY", 60)
# A bot seat still waiting this long after its decision fell due lost its job (the
# broker was down, a worker died): the bot sweep starts it again.
BOT_STALLED_SECONDS = env_float("BOT_STALLED_SECONDS", 60)
# A game the deadline sweep claimed whose missed-decision job has not ended this long
# after (its worker died, or the broker lost the job) is claimed again by a later sweep.
# So a missed deadline is handled at most 2 * PERIODIC_JOBS_EVERY + this after it
# passed, while a beat and a worker run (README, Background jobs).
DEADLINE_CLAIM_EXPIRES_SECONDS = env_float("DEADLINE_CLAIM_EXPIRES_SECONDS", 300)
if DEADLINE_CLAIM_EXPIRES_SECONDS <= 0:
    raise ImproperlyConfigured("DEADLINE_CLAIM_EXPIRES_SECONDS must be above 0.")
# How often an open game page asks whether the game changed (another player moved, a
# deadline passed), to show it without a reload.
GAME_PAGE_POLL_SECONDS = env_int("GAME_PAGE_POLL_SECONDS", 10)
# How long the cache keeps a reader's positions of a game's record (record.json), each as
# the record writes it: the next request writes out only the moves made since. Kept again
# for as long at each request that adds moves; 0 keeps nothing.
GAME_RECORD_CACHE_SECONDS = env_int("GAME_RECORD_CACHE_SECONDS", 7 * 24 * 3600)
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-reminders": {"task": "games.tasks.sweep_reminders", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-bots": {"task": "games.tasks.sweep_bots", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-outbox": {"task": "mail.tasks.sweep_outbox", "schedule": PERIODIC_JOBS_EVERY},
    "trim-outbox": {"task": "mail.tasks.trim_outbox", "schedule": PERIODIC_JOBS_EVERY},
    "send-digests": {"task": "games.tasks.send_digests", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-inbound": {"task": "inbound.tasks.sweep_inbound", "schedule": PERIODIC_JOBS_EVERY},
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep_tournaments",
        "schedule": PERIODIC_JOBS_EVERY,
    },
    "sweep-ladders": {"task": "ratings.tasks.sweep_ladders", "schedule": PERIODIC_JOBS_EVERY},
}

# The HTTPS settings apply in production only, but are read, and so checked, whatever
# DJANGO_DEBUG says.
ssl_redirect = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
# Start low and raise once HTTPS is known to work everywhere: browsers remember it.
hsts_seconds = env_int("DJANGO_SECURE_HSTS_SECONDS", 3600)
hsts_include_subdomains = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
hsts_preload = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
if not DEBUG:
    SECURE_SSL_REDIRECT = ssl_redirect
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = hsts_include_subdomains
    SECURE_HSTS_PRELOAD = hsts_preload
