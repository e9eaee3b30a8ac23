"""Reading a received message: who sent it, to which addresses, whether a program sent
it (an out-of-office reply, a bounce), and the line its writer typed first.

Nothing here touches the database. Whatever the bytes, ``read_message`` returns a
``Reading`` or raises ``Unreadable``: a message that cannot be read changes nothing.

The reply's own text is found by a reply parser (mail-parser-reply: quoted text, the
"On … wrote:" and Outlook "From:/Sent:" headers, signatures and "Sent from my phone"
lines go), from the plain-text part, or from the HTML part turned into text by
inscriptis after its quotations (blockquotes, Gmail's and Outlook's quoted blocks) are
dropped.
"""

from __future__ import annotations

import email
import email.parser
import email.policy
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import getaddresses

from inscriptis import get_text
from lxml import etree
from lxml import html as lxml_html
from mailparser_reply import EmailReplyParser

# The reply parser's languages: the "On … wrote:" lines of these are recognised.
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "pl", "cs"]
# Only the start of a body is read: the command is on its first lines.
TEXT_LIMIT = 20_000
HEADER_LIMIT = 64_000
MAX_LINE = 1000

AUTO_SUBJECT = re.compile(
    r"^\s*(?:(?:re|aw|fw|fwd)\s*:\s*)*(?:out of (?:the )?office|automatic reply|auto(?:matic)?[- ]?"
    r"(?:reply|response|antwort)|autoreply|auto:|abwesenheit|absence|vacation|on holiday|"
    r"away from (?:the|my) office|r[ée]ponse automatique|respuesta autom[áa]tica)",
    re.IGNORECASE,
)
BOUNCE_SUBJECT = re.compile(
    r"^\s*(?:undeliver(?:ed|able)|delivery status notification \(failure\)|"
    r"mail delivery (?:failed|failure|subsystem)|returned mail|failure notice|"
    r"delivery (?:has )?failed|unzustellbar)",
    re.IGNORECASE,
)
DAEMONS = ("mailer-daemon@", "postmaster@", "mail-daemon@")
QUOTED_HTML = (
    "//blockquote",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' gmail_quote ')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' moz-cite-prefix ')]",
    "//*[@id='divRplyFwdMsg']",
    "//*[@id='appendonsend']",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' yahoo_quoted ')]",
)


def clean(text: str) -> str:
    """Text as a database stores it: no NUL characters, nothing that is not UTF-8
    (lone surrogates from undecodable headers)."""
    return text.replace("\x00", "").encode("utf-8", errors="replace").decode("utf-8")


class Unreadable(ValueError):
    """The message cannot be read at all (no headers, not mail)."""


@dataclass
class Reading:
    message_id: str
    sender: str  # the one From address, lower case; "" when there is not exactly one
    subject: str
    recipients: list[str]  # To, Cc, Delivered-To, X-Original-To and the envelope's
    automatic: str = ""  # why a program sent it ("" for a person)
    bounce: bool = False
    failed: list[str] = field(default_factory=list)  # a bounce's failed addresses
    # The Message-IDs a bounce quotes (of the mail that failed, among others).
    quoted_ids: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the reply's lines, first first

    def __post_init__(self) -> None:
        self.message_id, self.sender = clean(self.message_id), clean(self.sender)
        self.subject = clean(self.subject)
        self.recipients = [clean(address) for address in self.recipients]

    @property
    def first_line(self) -> str:
        return self.lines[0] if self.lines else ""


def fallback_id(raw: bytes) -> str:
    """The name of a message without a Message-ID: the hash of its bytes, so the same
    bytes delivered twice are still handled once."""
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@inbound>"


def peek(raw: bytes, envelope_recipients: list[str] | None = None) -> Reading:
    """Headers only: nothing of the body is read (the reply token, the sender and the
    marks of a program are all in the headers; the body is read only for the token's
    player or a bounce, and only once its shape is within the caps)."""
    end = raw.find(b"\r\n\r\n", 0, HEADER_LIMIT)
    if end < 0:
        end = raw.find(b"\n\n", 0, HEADER_LIMIT)
    head = raw[: end if end >= 0 else HEADER_LIMIT]
    message = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(head)
    if not message.keys():
        raise Unreadable("the message has no headers")
    return _headers_of(message, raw, envelope_recipients or [])


BOUNDARY = re.compile(rb"""boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s";]{1,200}))""", re.I)
DELIMITER = re.compile(rb"^--([^\r\n]{1,202}?)[ \t]*\r?$", re.M)


def mime_shape(raw: bytes) -> tuple[int, int]:
    """How many MIME parts the message has and how deep its multiparts nest, counted
    from its bytes (the boundaries it declares and its delimiter lines), without
    parsing it: the parser's cost grows with both, and a message's parts are read only
    once they are within INBOUND_MAX_PARTS and INBOUND_MAX_DEPTH."""
    declared = {quoted or bare for quoted, bare in BOUNDARY.findall(raw)}
    parts = depth = 0
    nesting: list[bytes] = []  # the multiparts open at this point, outermost first
    for match in DELIMITER.finditer(raw):
        line = match.group(1)
        closing = line.endswith(b"--") and line[:-2] in declared
        boundary = line[:-2] if closing else line
        if boundary not in declared:
            continue
        if boundary in nesting:  # a delimiter of an open multipart closes those inside
            del nesting[nesting.index(boundary) + 1 :]
            if closing:
                nesting.pop()
            else:
                parts += 1
        elif not closing:
            nesting.append(boundary)
            parts += 1
        depth = max(depth, len(nesting))
    return parts, depth


def read_message(raw: bytes, envelope_recipients: list[str] | None = None) -> Reading:
    """What the message says and who it is from (see the module's docstring)."""
    if not raw.strip():
        raise Unreadable("the message is empty")
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception as error:  # the parser is lenient: this is rare
        raise Unreadable(f"the message cannot be parsed: {type(error).__name__}") from None
    if not message.keys():
        raise Unreadable("the message has no headers")
    reading = _headers_of(message, raw, envelope_recipients or [])
    reading.failed = [clean(address) for address in _failed_recipients(message)]
    reading.bounce = reading.bounce or bool(reading.failed)
    if reading.bounce and not reading.automatic:
        reading.automatic = "a delivery status notification"
    if reading.bounce:
        reading.quoted_ids = quoted_ids(raw)
    if not reading.automatic:
        reading.lines = reply_lines(body_text(message))
    return reading


# --- headers ---------------------------------------------------------------------------


def header(message: Message, name: str) -> list[str]:
    """Every value of the header ``name``, as text; a value the header parser cannot
    make sense of is given raw instead of failing."""
    try:
        return [str(value) for value in message.get_all(name, [])]
    except Exception:
        return [str(value) for key, value in message.raw_items() if key.lower() == name.lower()]


def one(message: Message, name: str) -> str:
    values = header(message, name)
    return " ".join(values[0].split()) if values else ""


def addresses(values: list[str]) -> list[str]:
    try:
        pairs = getaddresses(values)
    except Exception:
        return []
    return [address.strip().lower() for _, address in pairs if "@" in address]


def _headers_of(message: Message, raw: bytes, envelope: list[str]) -> Reading:
    senders = addresses(header(message, "From"))
    recipients = addresses(
        header(message, "To")
        + header(message, "Cc")
        + header(message, "Delivered-To")
        + header(message, "X-Original-To")
        + header(message, "Envelope-To")
    )
    for address in addresses(envelope):
        if address not in recipients:
            recipients.insert(0, address)
    message_id = clean(one(message, "Message-ID"))[:255].strip() or fallback_id(raw)
    subject = one(message, "Subject")[:300]
    sender = senders[0] if len(set(senders)) == 1 else ""
    reading = Reading(message_id, sender, subject, recipients)
    automatic, reading.bounce = _automatic(message, sender, subject)
    reading.automatic = clean(automatic)
    return reading


def _automatic(message: Message, sender: str, subject: str) -> tuple[str, bool]:
    """Why the message was sent by a program, and whether it is a bounce."""
    content_type = one(message, "Content-Type").lower()
    if content_type.startswith("multipart/report"):
        if "delivery-status" in content_type:
            return "a delivery status notification", True
        return "an automatic report (multipart/report)", False
    if header(message, "X-Failed-Recipients"):
        return "a delivery status notification", True
    if sender.startswith(DAEMONS) or BOUNCE_SUBJECT.search(subject):
        return "a delivery failure notice", True
    # The null reverse-path: only bounces and automatic replies are sent with it
    # (RFC 5321 4.5.5, RFC 3834 2), and nothing may answer them.
    if one(message, "Return-Path").replace(" ", "") == "<>":
        return "an empty return path (Return-Path: <>)", False
    auto = one(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}", False
    precedence = one(message, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}", False
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply"):
        if header(message, name):
            return f"{name} is set", False
    if header(message, "List-Id"):
        return "a mailing list's mail (List-Id)", False
    if AUTO_SUBJECT.search(subject):
        return "an out-of-office subject", False
    return "", False


def _failed_recipients(message: Message) -> list[str]:
    """The addresses a bounce says failed: X-Failed-Recipients, and each failed
    recipient of a delivery-status report."""
    failed = addresses(header(message, "X-Failed-Recipients"))
    try:
        parts = list(message.walk())
    except Exception:
        return failed
    for part in parts:
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            continue
        for block in blocks:
            if not isinstance(block, Message):
                continue
            action = one(block, "Action").lower()
            recipient = one(block, "Final-Recipient") or one(block, "Original-Recipient")
            if action.startswith("failed") and recipient:
                address = recipient.rpartition(";")[2].strip().strip("<>").lower()
                if "@" in address and address not in failed:
                    failed.append(address)
    return failed


MESSAGE_ID = re.compile(rb"<([^<>\s@]{1,200}@[^<>\s@]{1,200})>")
MAX_QUOTED_IDS = 50


def quoted_ids(raw: bytes) -> list[str]:
    """The Message-IDs written anywhere in a bounce (the failed mail's headers, quoted as
    text/rfc822-headers or message/rfc822, In-Reply-To, References), the first few."""
    found: list[str] = []
    for match in MESSAGE_ID.finditer(raw):
        value = "<" + match.group(1).decode("ascii", errors="replace") + ">"
        if value not in found:
            found.append(value)
            if len(found) == MAX_QUOTED_IDS:
                break
    return found


# --- the body ---------------------------------------------------------------------------


def _decoded(part: Message) -> str:
    """A text part's content, whatever its transfer encoding and charset claim."""
    try:
        if isinstance(part, EmailMessage):
            content = part.get_content()
            if isinstance(content, str):
                return content
    except Exception:
        pass
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if not isinstance(payload, bytes):
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    charset = "utf-8"
    try:
        charset = part.get_content_charset() or "utf-8"
        return payload.decode(charset, errors="replace")
    except (LookupError, ValueError):
        return payload.decode("latin-1", errors="replace")


def body_text(message: Message) -> str:
    """The text a person wrote, quotations and all: the plain part if there is one,
    else the HTML part as text (with its quoted blocks dropped)."""
    plain = html = None
    try:
        for part in message.walk():
            if part.is_multipart() or part.get_content_disposition() == "attachment":
                continue
            kind = part.get_content_type()
            if kind == "text/plain" and plain is None:
                plain = part
            elif kind == "text/html" and html is None:
                html = part
    except Exception:
        return ""
    if plain is not None:
        text = _decoded(plain)[:TEXT_LIMIT]
        if text.strip() or html is None:
            return text
    if html is not None:  # some clients send an empty plain part beside the HTML one
        return html_text(_decoded(html)[: TEXT_LIMIT * 5])[:TEXT_LIMIT]
    return ""


def html_text(markup: str) -> str:
    """An HTML reply as text, without the blocks mail clients quote the earlier mail in."""
    if not markup.strip():
        return ""
    try:
        tree = lxml_html.document_fromstring(markup)
        for path in QUOTED_HTML:
            for element in tree.xpath(path):
                parent = element.getparent()
                if parent is not None:
                    # Outlook puts the earlier mail after its header block, not inside it.
                    if element.get("id") in ("divRplyFwdMsg", "appendonsend"):
                        for later in list(element.itersiblings()):
                            parent.remove(later)
                    parent.remove(element)
        return get_text(etree.tostring(tree, encoding="unicode"))
    except Exception:
        try:
            return get_text(markup)
        except Exception:
            return ""


_parser = EmailReplyParser(languages=LANGUAGES)


def reply_lines(text: str) -> list[str]:
    """The lines of the reply its writer typed, first first: the newest reply's unquoted
    lines; for a reply written below the quotation (bottom-posting), the unquoted lines
    after it."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    try:
        latest = _parser.read(text).replies
    except Exception:
        latest = []
    for reply in latest:
        lines = _own_lines(reply.body)
        if lines:
            return lines
    return _own_lines(text)


def _own_lines(text: str) -> list[str]:
    # Without the invisible characters some clients write (a byte order mark,
    # zero-width spaces, direction marks): "\ufeffmove usa brazil" is a move.
    visible = [
        "".join(c for c in line if unicodedata.category(c) != "Cf").strip()
        for line in text.split("\n")
    ]
    lines = []
    skip = False
    for line, following in zip(visible, [*visible[1:], ""], strict=True):
        if skip:
            skip = False
            continue
        if not line or line.startswith(">") or _parser_header(line):
            continue
        # Gmail wraps a long "On … wrote:" line in two (the address on the second):
        # the first half is no move.
        if following and _parser_header(f"{line} {following}"):
            skip = True
            continue
        lines.append(clean(line[:MAX_LINE]))
    return lines


WROTE = re.compile(
    r"^(on|am|le|el|il|op|den|w dniu|dne)\b.*"
    r"(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|napisał|napsal)[^:]*:$",
    re.IGNORECASE,
)


def _parser_header(line: str) -> bool:
    """An "On … wrote:" line that introduces a quotation."""
    return bool(WROTE.match(line))
