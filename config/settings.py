"""Settings from the environment.

Nothing set: SQLite file, Celery tasks run in-process, the in-memory channel layer, DEBUG on (``make run``).
``DATABASE_URL`` → PostgreSQL (or any dj-database-url URL); ``REDIS_URL`` → Celery broker,
result backend, cache and the channel layer. ``DJANGO_PRODUCTION=1`` → DEBUG off, secret key required, HTTPS settings
(``manage.py check --deploy`` clean).
"""

import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
import dj_email_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.environ_helpers import env_bool, env_list, env_seconds, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = env_bool("DJANGO_PRODUCTION", False)
DEBUG = env_bool("DJANGO_DEBUG", not PRODUCTION)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "" if PRODUCTION else "dev-only-insecure-key-do-not-use-in-production")
if PRODUCTION and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY: must be set to a random string of 50+ characters in production")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# the site's address, for the links of mails sent outside a request (a waiting list moving up)
SITE_URL = env_str("SITE_URL", "http://localhost:8000").rstrip("/")

INSTALLED_APPS = [
    "daphne",  # first: its runserver (ASGI, websockets) takes the place of Django's, so `make run` serves live tables
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # django-allauth's sessions page
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.usersessions",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "league",
    "games",
    "standings",
    "draw",
    "tables",
    "live",
    "notify",
    "importer",
    "pages",
    "ops",
    "config.apps.WiringConfig",  # last: connects every layer's listeners (config.wiring)
]

MIDDLEWARE = [
    "live.middleware.stamp_request",  # first: a live page's version is when its request began
    "ops.middleware.note_recovery",  # a request that reached the database after an outage logs its end
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",  # each session of an account, to log out everywhere
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into league.auth.lockout_response
]

# WhiteNoise serves the static files whenever DEBUG is off: collectstatic's output in production, and outside it
# (DJANGO_DEBUG=0 without DJANGO_PRODUCTION) the app's own static folders through the finders, as runserver would.
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:  # collectstatic's folder is not needed there, and not made by the edit loop
    warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles")

ROOT_URLCONF = "config.urls"
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
                "live.context_processors.live_version",
                "accounts.context.signup",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a few busy tables from one process: pages in threads of their own, the sockets and
    # the tables' clock in another. WAL lets readers read while one writer writes; every transaction takes the write
    # lock as it begins (IMMEDIATE), so two that read and then write never deadlock halfway (SQLite would fail one at
    # once with "database is locked" whatever the timeout); a writer waits for the lock up to "timeout" seconds.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL",
    }
if env_str("DATABASE_POOLER", "") == "pgbouncer":
    # PgBouncer pooling by transaction (docker-compose.yml): a server connection is this process's only for the length
    # of a transaction, so no cursor may outlive one on the server (Django's advice for transaction pooling) and
    # psycopg must not prepare statements there (the next transaction may run on another server connection).
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker died unacknowledged is delivered again after this long. The sweep below redoes a lost
# settle sooner; this bounds how long the lost message itself lingers. Keep it above the longest countdown or
# retry delay of a task (a few seconds here), or such a task is delivered twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "300")),
                                   "socket_connect_timeout": 0.4}
# A broker that does not answer fails a send at once (league.dispatch then runs the work in-process) instead of
# retrying for ~20 s inside a scorekeeper's request (a refused connection fails in milliseconds, an unanswered
# one within the connect timeout); the same for the result store beside it. The fail-fast publish policy is
# league.dispatch's own (PUBLISH_RETRY_POLICY), given with each send: not the Celery app's, which the workers use.
CELERY_BROKER_CONNECTION_TIMEOUT = 0.4
# A worker rides out a broker outage of any length: it tries to reconnect for ever (Celery's default gives up after
# 100 tries, ~45 min, and the worker exits), also when it starts with the broker down. A task running when the
# connection is lost finishes (its message comes back after the visibility timeout, and every task is safe to run
# twice): cancelling it on the loss is known to crash the consumer as it reconnects (celery/celery#9250).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Closing the broken connection, or acknowledging a task that ended during the outage, is never fatal
# (config.worker: Celery and kombu raise AttributeError there, which the stock worker takes as unrecoverable).
CELERY_WORKER_CONSUMER = "config.worker:OutageTolerantConsumer"
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1.0
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 1, "interval_start": 0,
                                                            "interval_step": 0.2, "interval_max": 0.2}}
CELERY_RESULT_EXPIRES = 3600
# The sweep redoes what a worker that died left undone (config.sweep, loaded by the workers through
# CELERY_IMPORTS); a worker also sweeps as it starts. `celery -A config beat` runs the schedule (docker-compose's
# beat service).
SWEEP_EVERY = 15.0  # s
CELERY_IMPORTS = ["config.sweep", "accounts.tasks"]
CELERY_BEAT_SCHEDULE = {"sweep": {"task": "config.sweep.sweep_task", "schedule": SWEEP_EVERY,
                                  "options": {"expires": SWEEP_EVERY}},
                        # the answers kept under Idempotency-Keys, a week after (games.idempotency)
                        "idempotency-keys": {"task": "games.tasks.clear_idempotency_keys_task",
                                             "schedule": 24 * 3600.0, "options": {"expires": 3600}},
                        # a reminder before each fixture (notify.reminders; the sweep runs it too)
                        "notify-reminders": {"task": "notify.tasks.send_reminders_task", "schedule": 300.0,
                                             "options": {"expires": 300}}}
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")  # tests give each run a queue of its own
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
if REDIS_URL:
    # django-redis with IGNORE_EXCEPTIONS: a Redis outage makes the cache miss (e.g. the API's throttles let
    # requests through) instead of failing the request; nothing the app must not lose is kept in the cache. The
    # outage is logged once, and its end (config.cache).
    CACHES = {"default": {"BACKEND": "config.cache.OutageNotingRedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5,
                                      "SOCKET_TIMEOUT": 0.5}}}
    DJANGO_REDIS_IGNORE_EXCEPTIONS = True
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# A visitors' rendering of a live page made by one ASGI process for all (live.shared): with a cache they share.
LIVE_SHARED_RENDERINGS = env_bool("LIVE_SHARED_RENDERINGS", bool(REDIS_URL))

# The real-time layer of the online tables (Channels). No REDIS_URL: the in-memory layer, enough for one ASGI
# process (`make run`: daphne's runserver serves the pages and the sockets). REDIS_URL: channels-redis, so that a
# table's events reach sockets held by any ASGI process and the web and worker processes can publish. Its pub/sub
# layer by default: measured here, the core layer failed at 200 tables with read timeouts (redis-py's pool of 100
# connections) while the pub/sub layer held. CHANNEL_LAYER=core picks the core layer. Redis pub/sub ignores the
# database index of REDIS_URL: CHANNEL_LAYER_PREFIX keeps two deployments (or test runs) on one Redis apart.
CHANNEL_LAYER = env_str("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in ("pubsub", "core"):
    raise ImproperlyConfigured(f"CHANNEL_LAYER: {CHANNEL_LAYER!r} is not pubsub or core")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {
        "BACKEND": "config.channel_layers.PubSubChannelLayer" if CHANNEL_LAYER == "pubsub"
        else "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": env_str("CHANNEL_LAYER_PREFIX", "allfours")},
    }}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Failed logins are counted by django-axes in the database (so a Redis outage does not stop logging in), per
# username and client address (REMOTE_ADDR; behind a proxy, see the README): see league/auth.py.
# allauth's backend takes the username or the e-mail address (accounts.forms.LoginForm).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "allauth.account.auth_backends.AuthenticationBackend"]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # successful logins are not logged with their address
AXES_LOCKOUT_CALLABLE = "league.auth.lockout_response"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Accounts (django-allauth, accounts/): signing up with a username and an e-mail address confirmed by a link, logging
# in with either, passwords reset by mail. ACCOUNT_SIGNUP=0: nobody signs up of their own accord (invitation only).
ACCOUNT_SIGNUP_OPEN = env_bool("ACCOUNT_SIGNUP", True)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # a mail scanner that follows the link does not confirm it: the page asks
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False  # the page that changes it stays logged in; the other devices do not
ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[All Fours League] "
ACCOUNT_USERNAME_MIN_LENGTH = 2
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = True  # a reset asked for an unknown address says the same as for a known one
ACCOUNT_RATE_LIMITS = {  # allauth's own limits, counted in the default cache
    "signup": "20/m/ip", "confirm_email": "1/3m/key", "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip", "change_password": "5/m/user", "manage_email": "10/m/user",
}
USERSESSIONS_TRACK_ACTIVITY = False

# Mail: every message is kept in the outbox and delivered by a worker (accounts.mail). EMAIL_URL names the delivery
# (smtp://user:password@host:587/?tls=True, submission+ssl://…, console://); without it mails are written as files
# to MAIL_DIR (default ./mail), so `make run` needs no mail server.
EMAIL_BACKEND = "accounts.mail.OutboxBackend"
_email = dj_email_url.parse(env_str("EMAIL_URL", "")) if env_str("EMAIL_URL", "") else {}
EMAIL_DELIVERY_BACKEND = _email.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = Path(_email.get("EMAIL_FILE_PATH") or env_str("MAIL_DIR", "") or BASE_DIR / "mail")
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
EMAIL_TIMEOUT = _email.get("EMAIL_TIMEOUT") or 20
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "All Fours League <noreply@localhost>")
# Notifications (notify, docs/notifications.md): web push signed with the VAPID key VAPID_PRIVATE_KEY (raw P-256,
# base64url; without it one is made once and kept in the database), VAPID_SUBJECT the contact a push service may
# write to (default: mailto: the sender's address); players are reminded NOTIFY_REMINDER_HOURS before a fixture.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "")
NOTIFY_REMINDER_HOURS = float(env_str("NOTIFY_REMINDER_HOURS", "24"))
SERVER_EMAIL = DEFAULT_FROM_EMAIL
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "America/Port_of_Spain"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))  # where collectstatic gathers
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",  # no Basic: a password hash per request
    ],
    "DEFAULT_THROTTLE_RATES": {"login": "10/min"},  # league.auth.LoginRateThrottle
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # an outage of the database or Redis: 503 with Retry-After (ops.errors); anything else league.api_errors
    "EXCEPTION_HANDLER": "ops.errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "All Fours League API",
    "DESCRIPTION": "Clubs, players, partnerships, competitions, matches, games, hands and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # drf-spectacular's own hook, then every operation's error statuses with the error shape: for /api/schema/ and
    # `manage.py spectacular` alike
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "league.api_errors.document_errors"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # names for the choice sets that hand entry's schema (games/entry_schema.py) shares with other components, and
    # two sets of winners named apart: a game's and a game result's (a, b), a match's and a team match's (a, b, d)
    "ENUM_NAME_OVERRIDES": {
        "ModeEnum": "games.models.Hand.MODES",
        "ChalkModeEnum": ["chalk"],
        "RecordModeEnum": ["record"],
        "PlayersEnum": "league.models.PLAYER_CHOICES",
        "TablePlayersEnum": [(2, 2), (4, 4)],
        "SideEnum": "games.models.SIDES",
        "ResultWinnerEnum": "games.serializers.RESULT_WINNERS",
        "MatchStatusEnum": "games.models.Match.STATUSES",  # a team match's are the same three
        "RoundStatusEnum": "draw.models.Round.STATUSES",
        "PairingFlagEnum": "draw.pairing.flags.PairingFlag.choices",
    },
}

# The Content-Security-Policy of production (django-csp): scripts, styles and everything else from the site only,
# so no inline script or style (the templates have none; a value a page needs, like the print sheet's row height,
# goes in a data- attribute its script reads). tests/browser/test_content_security_policy.py loads the pages under it.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": [SELF], "script-src": [SELF], "style-src": [SELF], "img-src": [SELF, "data:"],
    "font-src": [SELF], "connect-src": [SELF], "worker-src": [SELF], "manifest-src": [SELF],
    "object-src": [NONE], "base-uri": [SELF], "form-action": [SELF], "frame-ancestors": [NONE],
}}

# The health endpoints (ops.health) answer over plain HTTP inside the container, for docker's healthcheck and a
# load balancer, also where every other path is redirected to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
if PRODUCTION:
    # DJANGO_SECURE_SSL_REDIRECT=0: a site served over plain HTTP on a port (ops/scripts/make-env --http-port), whose
    # cookies must then travel without HTTPS and which must not tell browsers to insist on HTTPS
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = SECURE_SSL_REDIRECT
    CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if SECURE_SSL_REDIRECT else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "csp.middleware.CSPMiddleware")  # sends CONTENT_SECURITY_POLICY above

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # private entry links' tokens never reach a log (config/log_redaction.py; gunicorn: config/gunicorn.conf.py)
    "filters": {"redact_entry_tokens": {"()": "config.log_redaction.RedactEntryTokens"},
                # a request failed by a database or Redis outage: no traceback each, one line the outage (ops)
                "outage_once": {"()": "ops.outages.DropOutageTracebacks"}},
    "formatters": {"django.server": {"()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}",
                                     "style": "{"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_entry_tokens"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server",
                          "filters": ["redact_entry_tokens"]},
    },
    "loggers": {
        # to the root's filtered handler, not Django's own console handler
        "django": {"handlers": [], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
        "django.request": {"handlers": [], "filters": ["outage_once"]},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # daphne's runserver (`make run`) logs its requests and sockets here, not to django.server
        "django.channels.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}

# Online tables: seconds a bot waits before it moves (and a bot covering a player away or out of time) — the
# default pace of a new table, stored with it (Table.bot_pace), so a restart keeps every table's own pace.
TABLES_BOT_PACE = env_seconds("TABLES_BOT_PACE", 1.0, 0, 60)
# Seconds between two looks of the tables' ticker for due moves (tables.ticker): a bot moves at most this late.
TABLES_TICK = env_seconds("TABLES_TICK", 0.25, 0.01, 5)
