"""The real parts the play-by-email tests run against, and bounded waits on them.

- ``SmtpSink``: an SMTP server (aiosmtpd) on a free localhost port that keeps every mail
  it accepts; it can hold the first session at RCPT until the test releases it.
- ``CeleryProcesses``: Celery workers and beats, each a subprocess of
  ``python -m celery -A ww5site`` (or of another ``celery`` program), with their output
  kept in files.
- ``RedisServer``: a private redis-server on a free localhost port, for a test to stop
  and start again.
- ``WebServer``: the site served by a subprocess (gunicorn, or ``manage.py runserver``)
  on a free localhost port, its standard output and error kept apart in files.
- ``MailReader``: a player following a mail's link over HTTP (urllib with cookies),
  and ``decision_form``, which reads the decision form of the page it opens.
- ``players_dice_check``: a player's run of ``tools/verify_dice.py`` on a finished
  game's record.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from typing import IO, Any, TypeVar
from urllib.error import HTTPError
from urllib.parse import quote, urlencode, urljoin
from urllib.request import HTTPCookieProcessor, ProxyHandler, Request, build_opener

import redis
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

REPOSITORY = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def wait_until(
    check: Callable[[], T], seconds: float, what: str | Callable[[], str], every: float = 0.02
) -> T:
    """``check()``'s first truthy result; fails saying ``what`` was awaited after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() >= deadline:
            description = what() if callable(what) else what
            raise AssertionError(f"waited {seconds:g} s for {description}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the SMTP sink ---------------------------------------------------------------------

DECIDE_LINK = re.compile(r"https?://\S+/games/decide/[^/\s]+/")


@dataclass(frozen=True)
class Delivered:
    """One mail as the SMTP server received it."""

    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def message_id(self) -> str:
        return str(self.message["Message-ID"])

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        """The plain-text part."""
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None, f"the mail {self.subject!r} has no text part"
        return str(part.get_content())

    @property
    def decide_links(self) -> list[str]:
        """The one-click decision links in the text part."""
        return DECIDE_LINK.findall(self.text)

    def __str__(self) -> str:
        return f"{self.subject!r} to {', '.join(self.recipients)}"


class SmtpSink:
    """An SMTP server on 127.0.0.1 that keeps what it accepts.

    With ``hold_first`` the first RCPT command is answered only once ``release()`` is
    called (or after ``hold_limit`` seconds): its sender is stuck mid-send meanwhile.
    Other sessions are served as usual while it waits.
    """

    def __init__(self, hold_first: bool = False, hold_limit: float = 60) -> None:
        self.hold_first = hold_first
        self.hold_limit = hold_limit
        self.holding = threading.Event()  # the first session waits at RCPT
        self._released = threading.Event()
        self._lock = threading.Lock()
        self._delivered: list[Delivered] = []
        self.port = free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._released.set()
        self._controller.stop()

    def release(self) -> None:
        self._released.set()

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list
    ) -> str:
        if self.hold_first and not self.holding.is_set():
            self.holding.set()
            deadline = time.monotonic() + self.hold_limit
            while not self._released.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        message = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self._delivered.append(Delivered(tuple(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def delivered(self) -> list[Delivered]:
        """Every mail accepted so far, in order."""
        with self._lock:
            return list(self._delivered)

    def wait_for(
        self, matches: Callable[[Delivered], bool], what: str, seconds: float = 20
    ) -> Delivered:
        """The first accepted mail that ``matches``, waiting for it up to ``seconds``."""

        def found() -> Delivered | None:
            return next((mail for mail in self.delivered() if matches(mail)), None)

        def description() -> str:
            received = "\n  ".join(str(mail) for mail in self.delivered()) or "(none)"
            return f"{what}; the SMTP server received:\n  {received}"

        return wait_until(found, seconds, description)


# --- Celery subprocesses -----------------------------------------------------------------


@dataclass
class Running:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    log_file: IO[bytes] = field(repr=False)


class CeleryProcesses:
    """Celery workers and beats as subprocesses, with the given environment; ``celery``:
    the command that runs Celery (by default this Python's)."""

    def __init__(
        self,
        directory: Path,
        env: dict[str, str],
        celery: Sequence[str] = (sys.executable, "-m", "celery"),
    ) -> None:
        self.directory = directory
        self.env = env
        self.celery = list(celery)
        self.running: dict[str, Running] = {}
        self.stopped: dict[str, Running] = {}

    def _start(self, name: str, arguments: list[str], env: dict[str, str]) -> Running:
        assert name not in self.running and name not in self.stopped, f"{name} ran already"
        log_path = self.directory / f"{name}.log"
        log_file = log_path.open("wb")
        process = subprocess.Popen(
            [*self.celery, "-A", "ww5site", *arguments],
            cwd=REPOSITORY,
            env={**self.env, **env},
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl-C at the terminal is for pytest, not for them
        )
        running = self.running[name] = Running(name, process, log_path, log_file)
        return running

    def _wait_for_line(self, running: Running, text: str, seconds: float) -> None:
        def seen() -> bool:
            if running.process.poll() is not None:
                raise AssertionError(
                    f"celery {running.name} exited with {running.process.returncode} "
                    f"before it printed {text!r}:\n{self.log(running.name)}"
                )
            return text in self.log(running.name)

        wait_until(
            seen,
            seconds,
            lambda: f"celery {running.name} to print {text!r}:\n{self.log(running.name)}",
            every=0.05,
        )

    def start(self, name: str, arguments: list[str], ready: str, seconds: float = 30) -> None:
        """``celery -A ww5site`` with ``arguments``; returns once it printed ``ready``."""
        self._wait_for_line(self._start(name, arguments, {}), ready, seconds)

    def start_worker(self, name: str, pool: str = "solo", concurrency: int = 1, **env: str) -> None:
        """A worker, by default with the solo pool; ``env``: more environment. Returns once
        it is ready. Its database connections carry its name (PostgreSQL's
        ``application_name``), so a test can tell in ``pg_stat_activity`` which worker
        is doing what."""
        env = {"PGAPPNAME": name, **env}
        running = self._start(
            name,
            [
                "worker",
                f"--pool={pool}",
                f"--concurrency={concurrency}",
                "--loglevel=INFO",
                f"--hostname={name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            env,
        )
        self._wait_for_line(running, " ready.", seconds=30)

    def start_beat(self, name: str = "beat") -> None:
        """A beat, with a schedule file of its own in the test's directory (as each beat of
        a site has, on whichever host it runs)."""
        schedule = self.directory / f"{name}-schedule"
        running = self._start(name, ["beat", "--loglevel=INFO", f"--schedule={schedule}"], {})
        self._wait_for_line(running, "beat: Starting", seconds=30)

    def kill(self, name: str) -> int:
        """SIGKILL: the process (and a worker's pool processes) dies at once, in whatever
        it was doing."""
        running = self.running.pop(name)
        os.killpg(running.process.pid, signal.SIGKILL)
        code = running.process.wait(timeout=10)
        running.log_file.close()
        self.stopped[name] = running
        return code

    def stop(self, name: str, grace: float = 10) -> None:
        """SIGTERM (a warm shutdown), then SIGKILL if it is still running after ``grace``."""
        running = self.running.pop(name)
        process = running.process
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        running.log_file.close()
        self.stopped[name] = running

    def stop_all(self) -> None:
        for name in list(self.running):
            self.stop(name)

    def log(self, name: str) -> str:
        running = self.running.get(name) or self.stopped[name]
        return running.log_path.read_text(errors="replace")

    def logs(self) -> dict[str, str]:
        return {name: self.log(name) for name in [*self.stopped, *self.running]}


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the database Django is connected to (the test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(str(settings_dict.get("PASSWORD") or ""), safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = quote(settings_dict.get("HOST") or "localhost", safe="")
    port = settings_dict.get("PORT") or 5432
    name = quote(settings_dict["NAME"], safe="")
    return f"postgres://{credentials}{host}:{port}/{name}"


def subprocess_env(**values: str) -> dict[str, str]:
    """This process's environment with ``values``, for the Celery subprocesses."""
    env = dict(os.environ)
    env.update(values)
    env["DJANGO_SETTINGS_MODULE"] = "ww5site.settings"
    env["PYTHONUNBUFFERED"] = "1"
    return env


# --- a private Redis ----------------------------------------------------------------------


class RedisServer:
    """A redis-server of the test's own, which it may stop and start again.

    Its snapshot file is in ``directory`` and it saves none by itself: stopped with
    ``save=True`` it comes back with its contents, as a Redis restarted from its
    snapshot (or only out of reach for a while) does; otherwise it comes back empty.
    """

    def __init__(self, program: str, directory: Path) -> None:
        self.program = program
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def start(self) -> None:
        """Start it; returns once it answers PING."""
        arguments = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        arguments += ["--appendonly", "no", "--dir", str(self.directory)]
        with (self.directory / f"redis-{self.port}.log").open("ab") as log:
            self.process = subprocess.Popen(
                [self.program, *arguments],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def answers() -> bool:
            try:
                return bool(self.client().ping())
            except redis.ConnectionError:
                return False

        wait_until(answers, 20, f"redis-server on port {self.port} to answer")

    def kill(self) -> None:
        """SIGKILL: it dies at once, its connections cut mid-use."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)

    def stop(self, save: bool = False) -> None:
        """SIGTERM (after SAVE, writing its snapshot, if ``save``); returns once it exited."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        if save:
            self.client().save()
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


# --- a web server subprocess -----------------------------------------------------------


class WebServer:
    """The site served by ``command`` (which must listen on ``port``) in a subprocess."""

    def __init__(self, command: list[str], port: int, env: dict[str, str], directory: Path):
        self.command = command
        self.port = port
        self.env = env
        self.stdout_path = directory / f"server-{port}.out"
        self.stderr_path = directory / f"server-{port}.err"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, seconds: float = 30) -> None:
        """Start it; returns once it accepts connections."""
        with self.stdout_path.open("wb") as out, self.stderr_path.open("wb") as err:
            self.process = subprocess.Popen(
                self.command,
                cwd=REPOSITORY,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
        process = self.process

        def listening() -> bool:
            if process.poll() is not None:
                raise AssertionError(
                    f"{self.command[:3]} exited with {process.returncode}:\n{self.stderr()}"
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                return False
            return True

        wait_until(listening, seconds, lambda: f"the server to listen:\n{self.stderr()}", 0.05)

    def stop(self, grace: float = 10) -> None:
        """SIGTERM to its process group (gunicorn's workers too), then SIGKILL."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stdout(self) -> str:
        return self.stdout_path.read_text(errors="replace")

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")


def gunicorn_server(env: dict[str, str], directory: Path, workers: int = 1) -> WebServer:
    """The site under gunicorn, as in production: ``workers`` on a free port."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "ww5site.wsgi", f"--bind=127.0.0.1:{port}"]
    return WebServer([*command, f"--workers={workers}"], port, env, directory)


def manage(*arguments: str, env: dict[str, str], python: str = sys.executable) -> str:
    """``manage.py`` with these arguments (run by ``python``); its standard output. Fails
    on a non-zero exit."""
    done = subprocess.run(
        [python, "manage.py", *arguments],
        cwd=REPOSITORY,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"manage.py {' '.join(arguments)}:\n{done.stdout}{done.stderr}"
    return done.stdout


# --- a player following links ------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    url: str
    status: int
    text: str


class MailReader:
    """A player who opens the links in their mail: plain HTTP with cookies, no proxy."""

    def __init__(self) -> None:
        self._opener = build_opener(ProxyHandler({}), HTTPCookieProcessor(CookieJar()))

    def _open(self, request: Request) -> Page:
        try:
            with self._opener.open(request, timeout=20) as response:
                return Page(response.url, response.status, response.read().decode())
        except HTTPError as error:
            return Page(request.full_url, error.code, error.read().decode())

    def get(self, url: str) -> Page:
        return self._open(Request(url))

    def post(self, url: str, fields: dict[str, str]) -> Page:
        data = urlencode(fields).encode()
        return self._open(Request(url, data=data, method="POST"))


@dataclass
class DecisionForm:
    """The decision form of a page: where it posts, its hidden fields, and the actions
    it offers (each with whether the page warns that it eliminates its player)."""

    action: str
    hidden: dict[str, str]
    offered: dict[str, bool]


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[DecisionForm] = []
        self._form: DecisionForm | None = None
        self._label_classes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._form = DecisionForm(attributes.get("action", ""), {}, {})
            self.forms.append(self._form)
        elif tag == "label":
            self._label_classes = attributes.get("class", "").split()
        elif tag == "input" and self._form is not None:
            kind, name = attributes.get("type", "text"), attributes.get("name", "")
            if kind == "hidden":
                self._form.hidden[name] = attributes.get("value", "")
            elif kind == "radio" and name == "action":
                eliminates = "eliminates" in self._label_classes
                self._form.offered[attributes.get("value", "")] = eliminates

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "label":
            self._label_classes = []


def decision_form(page: Page) -> DecisionForm:
    """The one form on the page that offers actions, its action made absolute."""
    reader = _FormReader()
    reader.feed(page.text)
    forms = [form for form in reader.forms if form.offered]
    assert len(forms) == 1, f"expected one decision form on {page.url}, found {len(forms)}"
    form = forms[0]
    form.action = urljoin(page.url, form.action or page.url)
    return form


# --- a player checking a finished game's dice ----------------------------------------------

VERIFY_DICE = REPOSITORY / "tools" / "verify_dice.py"


def players_dice_check(record: str, directory: Path) -> list[str]:
    """``tools/verify_dice.py`` as a player runs it on a record they downloaded: the record
    saved to a file in ``directory`` (which holds nothing of the site), the script run
    from there by an isolated Python (``-I``), so that it can import nothing of the
    project. Fails unless it exits 0 (verified); returns the lines it printed."""
    directory.mkdir(parents=True, exist_ok=True)
    assert not any(directory.iterdir()), f"{directory} is not empty"
    path = directory / "record.json"
    path.write_text(record, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFY_DICE), path.name],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, (
        f"verify_dice.py exited {done.returncode}:\n{done.stdout}{done.stderr}"
    )
    lines = done.stdout.splitlines()
    assert lines, "verify_dice.py printed nothing"
    return lines
