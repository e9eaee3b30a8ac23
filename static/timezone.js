// Times follow the viewer's own time zone: tell the site which zone this browser is in
// (a cookie read on every request), and, for a signed-in player who has not chosen a
// zone, have it kept on the profile so that mails use it too. Pages work without it.
(function () {
  "use strict";
  var script = document.currentScript;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone || !script) {
    return;
  }
  document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
  var report = script.dataset.report;
  if (!report || script.dataset.zone === zone) {
    return;
  }
  var token = (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1];
  if (!token) {
    return;
  }
  fetch(report, {
    method: "POST",
    credentials: "same-origin",
    headers: {"X-CSRFToken": decodeURIComponent(token)},
    body: new URLSearchParams({time_zone: zone}),
  });
})();
