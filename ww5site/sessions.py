"""Sessions read from the cache, and from the database whenever the cache fails.

Django's ``cached_db`` store reads a session from the cache and, on a miss, from the
database; but it puts what it read back into the cache, checks whether a new session
key is taken, and deletes a signed-out session from the cache without a guard. With the
cache down (Redis stopped), every signed-in request failed. Here a failed cache
operation is logged as a warning and the database, which holds every session anyway,
answers alone.

A cache that comes back with its contents (Redis was only out of reach, or restarted
from its snapshot) still holds what it held before: the entry of a session signed out
meanwhile would sign its player back in, and the entry of a session changed meanwhile
would bring back its old data. So a process that saw the cache fail deletes every
session entry from it as soon as it reaches it again, before it reads one, and reads
sessions from the database afresh. Until that process's next request, another process
may still read an old entry; a cache Redis run without persistence comes back from a
restart empty, with no old entries at all.

It needs the site's Redis cache (``ww5site.cache.RedisCache``), which can delete the
session entries alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore

from ww5site.cache import failed_here

logger = logging.getLogger(__name__)

# Set once this process has seen the cache fail (here, or in any other use of the site's
# cache, which takes a failure for a miss): its session entries may be out of date.
cache_failed_here = failed_here


class SessionStore(CachedDBStore):
    def load(self) -> dict[str, Any]:
        if cache_failed_here.is_set() and not self._forget_cached_sessions():
            return DBStore.load(self)
        try:
            data = self._cache.get(self.cache_key)
        except Exception as error:
            _cache_failed("reading a session", error)
            return DBStore.load(self)
        if data is not None:
            return data
        session = self._get_session_from_db()
        if session is None:
            return {}
        data = self.decode(session.session_data)
        expiry = self.get_expiry_age(expiry=session.expire_date)
        _quietly("caching a session", self._cache.set, self.cache_key, data, expiry)
        return data

    def exists(self, session_key: str) -> bool:
        try:
            return bool(super().exists(session_key))
        except Exception as error:
            _cache_failed("looking a session up", error)
            return bool(DBStore.exists(self, session_key))

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        expiry = self.get_expiry_age()
        _quietly("caching a session", self._cache.set, self.cache_key, self._session, expiry)

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)
        if session_key is None:
            session_key = self.session_key
            if session_key is None:
                return
        _quietly("deleting a session", self._cache.delete, self.cache_key_prefix + session_key)

    def _forget_cached_sessions(self) -> bool:
        """Delete the session entries a failing cache may have kept; whether it answered.

        The mark is taken down first, so a failure seen by another thread meanwhile puts
        it back up for the next request.
        """
        cache_failed_here.clear()
        if not _quietly("deleting the sessions it kept", self._cache.delete_prefixed, KEY_PREFIX):
            return False
        logger.warning("the session cache answers again: its sessions were deleted from it")
        return True


KEY_PREFIX = CachedDBStore.cache_key_prefix


def _quietly(what: str, operation: Callable[..., Any], *args: Any) -> bool:
    """Run a cache operation; a failure is only a warning. Whether it succeeded."""
    try:
        operation(*args)
    except Exception as error:
        _cache_failed(what, error)
        return False
    return True


def _cache_failed(what: str, error: Exception) -> None:
    cache_failed_here.set()
    logger.warning(
        "the session cache failed %s, the database answers: %s: %s",
        what,
        type(error).__name__,
        error,
    )
